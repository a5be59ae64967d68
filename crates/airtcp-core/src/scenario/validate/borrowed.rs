//! A decoder of a parsed TOML value by reference: the fast path of [`Validator::decode`].
//!
//! Validation decodes every entry of a scenario into its schema struct. The general path,
//! `serde_path_to_error` over toml's owned `Value` deserializer, moves or copies the value,
//! clones every key twice (toml hands each key to the visitor as a new `String` and keeps a copy
//! for its error context; the path tracker copies it again) and records the path of every field,
//! though almost every entry is valid: about 0.4 of the 1.7 G instructions of loading a
//! 10,000-flow dumbbell. [`decode_ref`] decodes from `&toml::Value` with no path and no copies
//! (keys and strings are lent to the visitor), and returns only whether it succeeded: on any
//! failure the caller runs the general path on the same value, which alone writes the messages.
//!
//! So the only requirement is: **when [`decode_ref`] succeeds, the general path succeeds with the
//! same value**. Each method below does what toml 1.x's `impl Deserializer for Value` does
//! (`toml/src/value.rs`), with borrowed instead of owned strings (every serde visitor that takes a
//! `String` takes a `&str`: `visit_string` and `visit_borrowed_str` both default to `visit_str`),
//! and gives up (`Err`) wherever it would have to do something else: an enum written as a table
//! and a struct decoded from a date-time (no schema type has either). The property test
//! `decode_ref_matches_the_general_path` checks the requirement on mutated scenarios.
//!
//! [`Validator::decode`]: super::Validator

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use std::fmt;

/// The fast path failed; the general path says why.
#[derive(Debug)]
pub(super) struct Rejected;

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("rejected by the fast path")
    }
}

impl std::error::Error for Rejected {}

impl de::Error for Rejected {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Rejected
    }
}

/// Decodes `value` into `T` without copying it, or `None` if it does not decode (the general
/// path then reports why).
pub(super) fn decode_ref<'a, T: de::Deserialize<'a>>(value: &'a toml::Value) -> Option<T> {
    T::deserialize(ValueRef(value)).ok()
}

/// A borrowed TOML value as a serde deserializer.
struct ValueRef<'a>(&'a toml::Value);

impl<'de> de::Deserializer<'de> for ValueRef<'de> {
    type Error = Rejected;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Rejected> {
        match self.0 {
            toml::Value::Boolean(v) => visitor.visit_bool(*v),
            toml::Value::Integer(n) => visitor.visit_i64(*n),
            toml::Value::Float(n) => visitor.visit_f64(*n),
            toml::Value::String(v) => visitor.visit_borrowed_str(v),
            toml::Value::Datetime(v) => visitor.visit_string(v.to_string()),
            toml::Value::Array(v) => {
                let mut seq = SeqRef(v.iter());
                let out = visitor.visit_seq(&mut seq)?;
                // toml: "fewer elements in array" when the visitor stopped early
                if seq.0.len() == 0 { Ok(out) } else { Err(Rejected) }
            }
            toml::Value::Table(v) => {
                let mut map = MapRef { iter: v.iter(), value: None };
                let out = visitor.visit_map(&mut map)?;
                if map.iter.len() == 0 { Ok(out) } else { Err(Rejected) }
            }
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Rejected> {
        match self.0 {
            // toml: `visit_enum(variant.into_deserializer())`, a unit variant named by the string
            toml::Value::String(variant) => visitor.visit_enum(IntoDeserializer::<Rejected>::into_deserializer(variant.as_str())),
            // a variant written as a table: left to the general path
            _ => Err(Rejected),
        }
    }

    // toml: `None` is a missing field, so a present value is always `Some`.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Rejected> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Rejected> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Rejected> {
        match self.0 {
            // toml decodes its own date-time struct specially: left to the general path
            toml::Value::Datetime(_) => Err(Rejected),
            _ => self.deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 char str string unit seq
        bytes byte_buf map unit_struct tuple_struct
        tuple ignored_any identifier
    }
}

/// The elements of a borrowed array.
struct SeqRef<'a>(std::slice::Iter<'a, toml::Value>);

impl<'de> de::SeqAccess<'de> for SeqRef<'de> {
    type Error = Rejected;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Rejected> {
        match self.0.next() {
            Some(value) => seed.deserialize(ValueRef(value)).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// The entries of a borrowed table, in the table's order (the owned deserializer's order).
struct MapRef<'a> {
    iter: toml::map::Iter<'a, String, toml::Value>,
    value: Option<&'a toml::Value>,
}

impl<'de> de::MapAccess<'de> for MapRef<'de> {
    type Error = Rejected;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Rejected> {
        match self.iter.next() {
            Some((key, value)) => {
                self.value = Some(value);
                // toml hands the key over as `Value::String(key)`
                seed.deserialize(KeyRef(key)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Rejected> {
        match self.value.take() {
            Some(value) => seed.deserialize(ValueRef(value)),
            None => Err(Rejected),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// A table key, which toml decodes as the value `Value::String(key)`: the same as
/// [`ValueRef`] of a string (any visitor: `visit_borrowed_str`; an enum: a unit variant).
struct KeyRef<'a>(&'a str);

impl<'de> de::Deserializer<'de> for KeyRef<'de> {
    type Error = Rejected;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Rejected> {
        visitor.visit_borrowed_str(self.0)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Rejected> {
        visitor.visit_enum(IntoDeserializer::<Rejected>::into_deserializer(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Rejected> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Rejected> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 char str string unit seq
        bytes byte_buf map unit_struct tuple_struct struct
        tuple ignored_any identifier
    }
}

#[cfg(test)]
mod tests {
    use super::decode_ref;
    use crate::scenario::schema::*;
    use serde::de::DeserializeOwned;
    use std::fmt::Debug;

    /// The general path, as `Validator::decode_general` runs it.
    fn general<T: DeserializeOwned>(value: &toml::Value) -> Option<T> {
        serde_path_to_error::deserialize::<_, T>(value.clone()).ok()
    }

    /// Decodes `value` into `T` both ways; returns whether it decoded. Fails if the fast path
    /// accepts what the general path rejects, decodes another value, or rejects what it accepts
    /// (which would only cost time, but no schema type should need it).
    fn same<T: DeserializeOwned + Debug>(value: &toml::Value) -> bool {
        let fast = decode_ref::<T>(value);
        let slow = general::<T>(value);
        assert_eq!(
            fast.as_ref().map(|t| format!("{t:?}")),
            slow.as_ref().map(|t| format!("{t:?}")),
            "{} from {value}",
            std::any::type_name::<T>()
        );
        slow.is_some()
    }

    /// Every schema type, both ways; the number of types `value` decodes into.
    fn all_types(value: &toml::Value) -> usize {
        [
            same::<Quantity>(value),
            same::<RawScenario>(value),
            same::<RawSimulation>(value),
            same::<RawNode>(value),
            same::<RawLink>(value),
            same::<RawDirection>(value),
            same::<RawDropTail>(value),
            same::<RawRed>(value),
            same::<RawSojourn>(value),
            same::<RawLoss>(value),
            same::<RawRouting>(value),
            same::<RawAodv>(value),
            same::<RawRoute>(value),
            same::<RawFlow>(value),
            same::<RawUdp>(value),
            same::<RawTcp>(value),
            same::<RawLtTcp>(value),
            same::<RawBulk>(value),
            same::<RawFile>(value),
            same::<RawCbr>(value),
            same::<RawPareto>(value),
            same::<RawOutputs>(value),
            same::<RawTrace>(value),
            same::<RawWireless>(value),
            same::<RawRateAdaptation>(value),
            same::<RawWirelessStation>(value),
            same::<RawWirelessLoss>(value),
            same::<Vec<f64>>(value),
            same::<Option<i64>>(value),
            same::<bool>(value),
            same::<String>(value),
        ]
        .into_iter()
        .filter(|&ok| ok)
        .count()
    }

    /// Every table and array element inside `value`, `value` first.
    fn parts(value: &toml::Value, out: &mut Vec<toml::Value>) {
        out.push(value.clone());
        match value {
            toml::Value::Table(t) => t.values().for_each(|v| parts(v, out)),
            toml::Value::Array(a) => a.iter().for_each(|v| parts(v, out)),
            _ => {}
        }
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// A value of a random kind (every TOML type, a date-time included).
    fn random_value(rng: &mut Rng) -> toml::Value {
        match rng.below(9) {
            0 => toml::Value::Integer(rng.below(2000) as i64 - 1000),
            1 => toml::Value::Float(rng.below(1000) as f64 / 7.0),
            2 => toml::Value::Boolean(rng.below(2) == 0),
            3 => toml::Value::String(["10ms", "reno", "tcp", "bulk", "n0", "x", "droptail"][rng.below(7)].into()),
            4 => toml::Value::Array(vec![toml::Value::Float(1.0), toml::Value::Integer(2)]),
            5 => toml::Value::Array(vec![toml::Value::String("a".into())]),
            6 => toml::Value::Datetime("1979-05-27T07:32:00Z".parse().expect("a date-time")),
            7 => toml::Value::Table(toml::Table::new()),
            _ => {
                let mut t = toml::Table::new();
                t.insert("type".into(), toml::Value::String(["tcp", "bulk", "red", "bernoulli"][rng.below(4)].into()));
                toml::Value::Table(t)
            }
        }
    }

    /// `value` with one random change somewhere inside: a value replaced by one of another
    /// kind, a key removed, an unknown key added, an array element dropped.
    fn mutate(value: &mut toml::Value, rng: &mut Rng) {
        match value {
            toml::Value::Table(t) if !t.is_empty() => {
                let keys: Vec<String> = t.keys().cloned().collect();
                let key = &keys[rng.below(keys.len())];
                match rng.below(6) {
                    0 => {
                        t.remove(key);
                    }
                    1 => {
                        t.insert("unknown_key".into(), random_value(rng));
                    }
                    2 | 3 => *t.get_mut(key).expect("a key") = random_value(rng),
                    _ => mutate(t.get_mut(key).expect("a key"), rng),
                }
            }
            toml::Value::Array(a) if !a.is_empty() => {
                let i = rng.below(a.len());
                match rng.below(3) {
                    0 => {
                        a.remove(i);
                    }
                    1 => a[i] = random_value(rng),
                    _ => mutate(&mut a[i], rng),
                }
            }
            other => *other = random_value(rng),
        }
    }

    fn scenarios() -> Vec<toml::Value> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut out = Vec::new();
        for dir in ["scenarios", "bench/scenarios"] {
            let mut files: Vec<_> =
                std::fs::read_dir(root.join(dir)).expect("a scenarios folder").flatten().map(|e| e.path()).collect();
            files.sort();
            for f in files.into_iter().filter(|f| f.extension().is_some_and(|e| e == "toml")) {
                let text = std::fs::read_to_string(&f).expect("readable");
                out.push(toml::Value::Table(text.parse().expect("a valid scenario")));
            }
        }
        assert!(out.len() >= 8, "the repository's scenarios");
        out
    }

    #[test]
    fn decode_ref_matches_the_general_path() {
        let mut rng = Rng(19);
        let (mut decoded, mut cases) = (0, 0);
        for doc in scenarios() {
            // every part of the valid scenario into every type
            let mut all = Vec::new();
            parts(&doc, &mut all);
            for part in &all {
                decoded += all_types(part);
                cases += 1;
            }
            // mutated scenarios: every part of each
            for _ in 0..60 {
                let mut m = doc.clone();
                for _ in 0..1 + rng.below(3) {
                    mutate(&mut m, &mut rng);
                }
                let mut all = Vec::new();
                parts(&m, &mut all);
                for part in &all {
                    decoded += all_types(part);
                    cases += 1;
                }
            }
        }
        // not vacuous: many values decode, and most do not
        assert!(decoded > 2_000 && decoded < cases * 10, "{decoded} decodes of {cases} values");
    }

    #[test]
    fn fast_path_gives_up_where_toml_differs() {
        // a date-time decodes as its string into a string or a quantity, as toml does
        let dt = toml::Value::Datetime("1979-05-27".parse().expect("a date"));
        assert_eq!(decode_ref::<String>(&dt).as_deref(), Some("1979-05-27"));
        assert!(same::<Quantity>(&dt));
        // a table with a key the struct does not know is rejected by both
        let mut t = toml::Table::new();
        t.insert("name".into(), toml::Value::String("a".into()));
        t.insert("nmae".into(), toml::Value::String("a".into()));
        assert!(!same::<RawNode>(&toml::Value::Table(t)));
        // an integer is a float, as toml's deserializer hands it to serde
        let mut t = toml::Table::new();
        t.insert("name".into(), toml::Value::String("a".into()));
        t.insert("position".into(), toml::Value::Array(vec![toml::Value::Integer(3), toml::Value::Float(4.5)]));
        assert!(same::<RawNode>(&toml::Value::Table(t)));
    }
}
