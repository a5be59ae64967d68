//! Column-oriented serialisation of time series.
//!
//! A series is recorded as a `Vec` of small sample structs (cheap to append during a run) but
//! written out as one list per field: `{"time": [...], "cwnd": [...]}`. Column lists are what
//! pandas and plotting want, are several times more compact in JSON, and cross into Python as
//! lists of numbers instead of one dict per sample (the conversion that dominated the cost of a
//! run with series through the Python API).

/// Defines `$name(samples, serializer)` for `#[serde(serialize_with = "...")]` on a
/// `Vec<$ty>` field, writing one column per listed field (in the order given).
#[macro_export]
macro_rules! columnar {
    ($name:ident, $ty:ty, $($field:ident),+ $(,)?) => {
        /// Serialises the samples as one column per field.
        pub fn $name<S: serde::Serializer>(samples: &[$ty], s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(None)?;
            $( m.serialize_entry(stringify!($field), &samples.iter().map(|x| x.$field).collect::<Vec<_>>())?; )+
            m.end()
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::time::SimTime;

    #[derive(serde::Serialize)]
    pub struct Sample {
        time: SimTime,
        value: u64,
    }
    columnar!(sample_columns, Sample, time, value);

    #[derive(serde::Serialize)]
    struct Series {
        #[serde(serialize_with = "sample_columns")]
        samples: Vec<Sample>,
    }

    #[test]
    fn writes_one_list_per_field() {
        let s = Series {
            samples: vec![Sample { time: SimTime::from_millis(1500), value: 3 }, Sample { time: SimTime::ZERO, value: 4 }],
        };
        assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"samples":{"time":[1.5,0.0],"value":[3,4]}}"#);
    }
}
