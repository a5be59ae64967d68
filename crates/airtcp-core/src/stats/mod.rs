//! Statistics: drop causes, per-flow monitors and the report types of a run.

pub mod columnar;
pub mod drop;
pub mod flow;

pub use drop::{DropCause, DropCounts};
pub use flow::{FlowLabels, FlowMonitor, FlowReport};
