//! JSON in the dialect of Python's `json` module: standard JSON, except that non-finite numbers
//! are written `NaN`, `Infinity` and `-Infinity` (JSON itself has no token for them; `serde_json`
//! writes `null`, which a reader cannot tell from a missing value).
//!
//! Results hold such numbers where a statistic has no sample (a flow's mean delay with nothing
//! received), and the Python side stores results as `json.dumps` writes them. [`to_vec`] lets a
//! worker of a sweep hand over the result's JSON straight from Rust instead of building Python
//! objects and encoding them again (issue 19: that conversion and `json.dumps` were about a fifth
//! of a worker's time per 1-s run); `json.loads` of its bytes gives exactly the objects of the
//! conversion (`tests/test_result_json.py`).
//!
//! How: `serde_json` writes every number and structure; `NonFinite` wraps its serializer (and
//! every nested one), and for a non-finite float it notes the token to write and lets
//! `serde_json` write its `null`, which `Formatter` then replaces by the token. `f32` values are
//! written as the `f64` they convert to, as Python's conversion does.

use serde::ser::{self, Serialize, Serializer};
use std::cell::Cell;
use std::io;

/// `value` as JSON bytes (compact: no spaces), non-finite numbers as `NaN`, `Infinity`,
/// `-Infinity`.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let token = Cell::new(None);
    let mut out = Vec::with_capacity(8 * 1024);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Formatter { token: &token });
    value.serialize(NonFinite { inner: &mut ser, token: &token })?;
    Ok(out)
}

/// The token for a non-finite float, `None` for a finite one.
fn token_of(v: f64) -> Option<&'static str> {
    match v {
        v if v.is_nan() => Some("NaN"),
        f64::INFINITY => Some("Infinity"),
        f64::NEG_INFINITY => Some("-Infinity"),
        _ => None,
    }
}

/// `serde_json`'s compact formatter, writing the pending token instead of `null` when there is
/// one.
struct Formatter<'t> {
    token: &'t Cell<Option<&'static str>>,
}

impl serde_json::ser::Formatter for Formatter<'_> {
    #[inline]
    fn write_null<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(self.token.take().unwrap_or("null").as_bytes())
    }
}

/// A serializer that forwards everything to `inner`, noting the token of a non-finite float
/// first (see the module's documentation).
struct NonFinite<'t, S> {
    inner: S,
    token: &'t Cell<Option<&'static str>>,
}

/// A value serialized through [`NonFinite`].
struct Wrapped<'a, 't, T: ?Sized> {
    value: &'a T,
    token: &'t Cell<Option<&'static str>>,
}

impl<T: Serialize + ?Sized> Serialize for Wrapped<'_, '_, T> {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(NonFinite { inner: s, token: self.token })
    }
}

impl<'t, S> NonFinite<'t, S> {
    #[inline]
    fn wrap<'a, T: ?Sized>(&self, value: &'a T) -> Wrapped<'a, 't, T> {
        Wrapped { value, token: self.token }
    }
}

/// Forwards the listed scalar methods unchanged.
macro_rules! forward {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            #[inline]
            fn $method(self, v: $ty) -> Result<S::Ok, S::Error> {
                self.inner.$method(v)
            }
        )*
    };
}

impl<'t, S: Serializer> Serializer for NonFinite<'t, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = NonFinite<'t, S::SerializeSeq>;
    type SerializeTuple = NonFinite<'t, S::SerializeTuple>;
    type SerializeTupleStruct = NonFinite<'t, S::SerializeTupleStruct>;
    type SerializeTupleVariant = NonFinite<'t, S::SerializeTupleVariant>;
    type SerializeMap = NonFinite<'t, S::SerializeMap>;
    type SerializeStruct = NonFinite<'t, S::SerializeStruct>;
    type SerializeStructVariant = NonFinite<'t, S::SerializeStructVariant>;

    forward!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
    );

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<S::Ok, S::Error> {
        self.serialize_f64(f64::from(v))
    }

    #[inline]
    fn serialize_f64(self, v: f64) -> Result<S::Ok, S::Error> {
        if let Some(token) = token_of(v) {
            self.token.set(Some(token));
        }
        self.inner.serialize_f64(v)
    }

    #[inline]
    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.inner.serialize_none()
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        let v = self.wrap(value);
        self.inner.serialize_some(&v)
    }

    #[inline]
    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit()
    }

    #[inline]
    fn serialize_unit_struct(self, name: &'static str) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit_struct(name)
    }

    #[inline]
    fn serialize_unit_variant(self, name: &'static str, index: u32, variant: &'static str) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit_variant(name, index, variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        let v = self.wrap(value);
        self.inner.serialize_newtype_struct(name, &v)
    }

    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        let v = self.wrap(value);
        self.inner.serialize_newtype_variant(name, index, variant, &v)
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Ok(NonFinite { inner: self.inner.serialize_seq(len)?, token: self.token })
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        Ok(NonFinite { inner: self.inner.serialize_tuple(len)?, token: self.token })
    }

    #[inline]
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeTupleStruct, S::Error> {
        Ok(NonFinite { inner: self.inner.serialize_tuple_struct(name, len)?, token: self.token })
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        Ok(NonFinite { inner: self.inner.serialize_tuple_variant(name, index, variant, len)?, token: self.token })
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        Ok(NonFinite { inner: self.inner.serialize_map(len)?, token: self.token })
    }

    #[inline]
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct, S::Error> {
        Ok(NonFinite { inner: self.inner.serialize_struct(name, len)?, token: self.token })
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        Ok(NonFinite { inner: self.inner.serialize_struct_variant(name, index, variant, len)?, token: self.token })
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// The compound serializers: each element, key and field goes through [`NonFinite`] too.
macro_rules! compound {
    ($trait:ident, $method:ident $(, $key:ident: $kty:ty)?) => {
        impl<S: ser::$trait> ser::$trait for NonFinite<'_, S> {
            type Ok = S::Ok;
            type Error = S::Error;

            #[inline]
            fn $method<T: Serialize + ?Sized>(&mut self, $($key: $kty,)? value: &T) -> Result<(), S::Error> {
                let v = Wrapped { value, token: self.token };
                self.inner.$method($($key,)? &v)
            }

            #[inline]
            fn end(self) -> Result<S::Ok, S::Error> {
                self.inner.end()
            }
        }
    };
}

compound!(SerializeSeq, serialize_element);
compound!(SerializeTuple, serialize_element);
compound!(SerializeTupleStruct, serialize_field);
compound!(SerializeTupleVariant, serialize_field);
compound!(SerializeStruct, serialize_field, key: &'static str);
compound!(SerializeStructVariant, serialize_field, key: &'static str);

impl<S: ser::SerializeMap> ser::SerializeMap for NonFinite<'_, S> {
    type Ok = S::Ok;
    type Error = S::Error;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), S::Error> {
        let k = Wrapped { value: key, token: self.token };
        self.inner.serialize_key(&k)
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), S::Error> {
        let v = Wrapped { value, token: self.token };
        self.inner.serialize_value(&v)
    }

    #[inline]
    fn end(self) -> Result<S::Ok, S::Error> {
        self.inner.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    struct Inner {
        mean: f64,
        max: Option<f64>,
        gone: Option<f64>,
        ratio: f32,
        series: Vec<(f64, f64)>,
    }

    #[derive(Serialize)]
    enum Kind {
        Unit,
        New(f64),
        Pair(f64, u8),
        Named { x: f64 },
    }

    #[derive(Serialize)]
    struct Outer {
        name: String,
        inner: Inner,
        kinds: Vec<Kind>,
        by_id: BTreeMap<u32, f64>,
        unit: (),
    }

    #[test]
    fn non_finite_numbers_get_their_tokens_everywhere_and_null_stays_null() {
        let v = Outer {
            name: "a \"b\" é".into(),
            inner: Inner {
                mean: f64::NAN,
                max: Some(f64::INFINITY),
                gone: None,
                ratio: 0.1,
                series: vec![(0.5, f64::NEG_INFINITY), (1e-7, 1e300)],
            },
            kinds: vec![Kind::Unit, Kind::New(f64::NAN), Kind::Pair(-0.0, 3), Kind::Named { x: f64::INFINITY }],
            by_id: BTreeMap::from([(7, f64::NAN), (8, 2.5)]),
            unit: (),
        };
        let text = String::from_utf8(to_vec(&v).unwrap()).unwrap();
        assert_eq!(
            text,
            concat!(
                r#"{"name":"a \"b\" é","inner":{"mean":NaN,"max":Infinity,"gone":null,"#,
                r#""ratio":0.10000000149011612,"series":[[0.5,-Infinity],[1e-7,1e+300]]},"#,
                r#""kinds":["Unit",{"New":NaN},{"Pair":[-0.0,3]},{"Named":{"x":Infinity}}],"#,
                r#""by_id":{"7":NaN,"8":2.5},"unit":null}"#
            )
        );
    }

    #[test]
    fn finite_values_are_written_as_serde_json_writes_them() {
        // (`ratio`, an f32, is exact in both widths here.)
        let v = Inner { mean: 1.25, max: Some(3.0), gone: None, ratio: 2.0, series: vec![(1e21, 5e-324)] };
        assert_eq!(to_vec(&v).unwrap(), serde_json::to_vec(&v).unwrap());
    }
}
