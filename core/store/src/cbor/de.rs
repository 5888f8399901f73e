//! A serde deserializer over one canonical CBOR body in memory, checking the body as it
//! reads it (the rules of [`super::check`], with its messages): text and byte strings are
//! borrowed from the body, so a decoded string is copied once, into its value, and nothing
//! is buffered or read through `std::io`. It follows what `ciborium` writes
//! (`docs/session-format.md`, Canonical CBOR): structs and maps as maps, unit variants as text,
//! other variants as a one-entry map from the variant's name, every float visited as `f64`,
//! `null` as `None`. Malformed input is an error, never a panic; nesting is bounded by
//! [`MAX_DEPTH`].

use std::fmt;

use serde::de::{self, DeserializeSeed, Visitor};

use super::MAX_DEPTH;

/// Why a body did not decode: damage (`Malformed`: not canonical CBOR, described with its
/// body byte) or a body of the wrong shape for the record (`Shape`, serde's own message).
#[derive(Debug)]
pub(crate) enum DeError {
    /// Not one canonical CBOR item: what is wrong, and where.
    Malformed(String),
    /// Well-formed CBOR of another shape than the type being decoded.
    Shape(String),
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeError::Malformed(what) => f.write_str(what),
            DeError::Shape(what) => {
                write!(f, "its CBOR body does not have the record's shape ({what})")
            }
        }
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError::Shape(msg.to_string())
    }
}

/// Decode `bytes`, which must hold exactly one canonical CBOR data item, as a `T`.
///
/// # Errors
/// [`DeError`] when the bytes are malformed, of another shape, or not wholly used.
pub(crate) fn from_slice<'de, T: de::Deserialize<'de>>(bytes: &'de [u8]) -> Result<T, DeError> {
    let mut de = Deserializer {
        bytes,
        at: 0,
        depth: 0,
    };
    let value = T::deserialize(&mut de)?;
    if de.at != bytes.len() {
        return Err(DeError::Malformed(format!(
            "{} bytes follow its CBOR body, which must fill the frame",
            bytes.len() - de.at
        )));
    }
    Ok(value)
}

struct Deserializer<'de> {
    bytes: &'de [u8],
    at: usize,
    /// Arrays and maps open around the next item.
    depth: usize,
}

const NULL: u8 = 0xf6;

impl<'de> Deserializer<'de> {
    fn peek(&self) -> Result<u8, DeError> {
        self.bytes
            .get(self.at)
            .copied()
            .ok_or_else(|| DeError::Malformed("its CBOR body ends early".to_owned()))
    }

    fn take(&mut self, n: usize) -> Result<&'de [u8], DeError> {
        super::take(self.bytes, &mut self.at, n).map_err(DeError::Malformed)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], DeError> {
        let taken = self.take(N)?;
        taken
            .try_into()
            .map_err(|_| DeError::Malformed("its CBOR body ends early".to_owned()))
    }

    /// The argument after the initial byte at `start`, in its shortest form.
    fn argument(&mut self, minor: u8, start: usize) -> Result<u64, DeError> {
        super::argument(self.bytes, &mut self.at, minor, start).map_err(DeError::Malformed)
    }

    /// A length of `per` items each (every item takes at least one byte: a count beyond the
    /// bytes left is damage, found before anything is reserved for it).
    fn length(&mut self, minor: u8, start: usize, per: u64) -> Result<usize, DeError> {
        let n = self.argument(minor, start)?;
        usize::try_from(n)
            .ok()
            .filter(|_| n.saturating_mul(per) <= (self.bytes.len() - self.at) as u64)
            .ok_or_else(|| DeError::Malformed("its CBOR body ends early".to_owned()))
    }

    /// Open an array or map: refused beyond [`MAX_DEPTH`].
    fn enter(&mut self) -> Result<(), DeError> {
        if self.depth >= MAX_DEPTH {
            return Err(DeError::Malformed(format!(
                "its CBOR body is nested deeper than {MAX_DEPTH} levels"
            )));
        }
        self.depth += 1;
        Ok(())
    }

    /// Pass over one item (an unknown field's value), checking it.
    fn skip(&mut self) -> Result<(), DeError> {
        super::item(self.bytes, &mut self.at, self.depth).map_err(DeError::Malformed)
    }
}

/// An IEEE half-precision float's value (RFC 8949 Appendix D).
fn half(bits: u16) -> f64 {
    let exponent = i32::from((bits >> 10) & 0x1f);
    let mantissa = f64::from(bits & 0x3ff);
    let magnitude = match exponent {
        0 => mantissa * 2f64.powi(-24),
        31 if mantissa == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (mantissa + 1024.0) * 2f64.powi(exponent - 25),
    };
    if bits & 0x8000 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let start = self.at;
        let initial = self.take(1)?[0];
        let (major, minor) = (initial >> 5, initial & 0x1f);
        match major {
            0 => visitor.visit_u64(self.argument(minor, start)?),
            1 => {
                let n = self.argument(minor, start)?;
                match i64::try_from(n) {
                    Ok(n) => visitor.visit_i64(-1 - n),
                    Err(_) => visitor.visit_i128(-1 - i128::from(n)),
                }
            }
            2 => {
                let n = self.length(minor, start, 1)?;
                visitor.visit_borrowed_bytes(self.take(n)?)
            }
            3 => {
                let n = self.length(minor, start, 1)?;
                let text = std::str::from_utf8(self.take(n)?).map_err(|e| {
                    DeError::Shape(format!(
                        "text that is not UTF-8 at body byte {}",
                        self.at - n + e.valid_up_to()
                    ))
                })?;
                visitor.visit_borrowed_str(text)
            }
            4 | 5 => {
                let left = self.length(minor, start, u64::from(major - 3))?;
                self.enter()?;
                let mut items = Items { de: self, left };
                let value = if major == 4 {
                    visitor.visit_seq(&mut items)
                } else {
                    visitor.visit_map(&mut items)
                }?;
                let unread = items.left;
                self.depth -= 1;
                match unread {
                    0 => Ok(value),
                    n => Err(DeError::Shape(format!(
                        "{n} of the {left} items at body byte {start} unread"
                    ))),
                }
            }
            6 => Err(DeError::Malformed(format!(
                "a CBOR tag at body byte {start}"
            ))),
            _ => match minor {
                20 => visitor.visit_bool(false),
                21 => visitor.visit_bool(true),
                22 => visitor.visit_none(),
                25 => visitor.visit_f64(half(u16::from_be_bytes(self.array()?))),
                26 => {
                    let v = f64::from(f32::from_be_bytes(self.array()?));
                    if super::half_exact(v) {
                        return Err(DeError::Malformed(format!(
                            "non-shortest float at body byte {start}"
                        )));
                    }
                    visitor.visit_f64(v)
                }
                27 => {
                    let v = f64::from_be_bytes(self.array()?);
                    if f64::from(v as f32).to_bits() == v.to_bits() {
                        return Err(DeError::Malformed(format!(
                            "non-shortest float at body byte {start}"
                        )));
                    }
                    visitor.visit_f64(v)
                }
                _ => Err(DeError::Malformed(format!(
                    "a CBOR simple value other than false, true or null at body byte {start}"
                ))),
            },
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.peek()? == NULL {
            self.at += 1;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.peek()? == NULL {
            self.at += 1;
            visitor.visit_unit()
        } else {
            self.deserialize_any(visitor)
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.peek()? >> 5 {
            3 => visitor.visit_enum(Variant {
                de: self,
                in_map: false,
            }),
            5 => {
                let start = self.at;
                let initial = self.take(1)?[0];
                if self.length(initial & 0x1f, start, 2)? != 1 {
                    return Err(DeError::Shape(format!(
                        "an enum as a map of other than one entry at body byte {start}"
                    )));
                }
                self.enter()?;
                let value = visitor.visit_enum(Variant {
                    de: &mut *self,
                    in_map: true,
                })?;
                self.depth -= 1;
                Ok(value)
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.skip()?;
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        seq tuple tuple_struct map struct identifier
    }
}

/// The items of an array or the entries of a map, `left` still to read.
struct Items<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for &mut Items<'_, 'de> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> de::MapAccess<'de> for &mut Items<'_, 'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        if self.left == 0 {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        self.left = self.left.saturating_sub(1);
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// An enum: a unit variant's name as text, or the one entry of a map (its name, then its
/// value).
struct Variant<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    /// Whether the name was a map's key (so a value follows it).
    in_map: bool,
}

impl Variant<'_, '_> {
    fn value(&self) -> Result<(), DeError> {
        if self.in_map {
            Ok(())
        } else {
            Err(DeError::Shape(format!(
                "a variant with a value written as bare text before body byte {}",
                self.de.at
            )))
        }
    }
}

impl<'de, 'a> de::EnumAccess<'de> for Variant<'a, 'de> {
    type Error = DeError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), DeError> {
        let name = seed.deserialize(&mut *self.de)?;
        Ok((name, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        if self.in_map {
            de::Deserialize::deserialize(&mut *self.de)
        } else {
            Ok(())
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DeError> {
        self.value()?;
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        self.value()?;
        de::Deserializer::deserialize_any(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.value()?;
        de::Deserializer::deserialize_any(&mut *self.de, visitor)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde::{Deserialize, Serialize};

    use super::{DeError, from_slice};

    fn enc<T: Serialize>(v: &T) -> Vec<u8> {
        let mut out = Vec::new();
        ciborium::into_writer(v, &mut out).unwrap();
        out
    }

    fn json() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<u64>().prop_map(serde_json::Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(serde_json::Value::from),
            prop_oneof![Just(1.5f64), Just(-0.0), Just(65504.0), Just(0.1)]
                .prop_map(serde_json::Value::from),
            ".{0,40}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::from),
                prop::collection::btree_map(".{0,8}", inner, 0..8)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Whatever the encoder writes decodes to what `ciborium` itself decodes.
        #[test]
        fn decodes_as_ciborium_does(value in json()) {
            let bytes = enc(&value);
            let ours: serde_json::Value = from_slice(&bytes).unwrap();
            let theirs: serde_json::Value = ciborium::from_reader(&bytes[..]).unwrap();
            prop_assert_eq!(&ours, &theirs);
            prop_assert_eq!(ours, value);
        }

        /// Arbitrary bytes get an error or a value, never a panic; what decodes is one item
        /// the checker accepts.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            if from_slice::<serde_json::Value>(&bytes).is_ok() {
                prop_assert!(super::super::check(&bytes).is_ok());
            }
        }
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Change {
        Omit,
        Replace(String),
        Pair(u8, u8),
        Named { a: u8 },
    }

    #[test]
    fn enums_are_read_in_the_encoders_forms() {
        for change in [
            Change::Omit,
            Change::Replace("x".into()),
            Change::Pair(1, 2),
            Change::Named { a: 3 },
        ] {
            assert_eq!(from_slice::<Change>(&enc(&change)).unwrap(), change);
        }
        // A variant with a value written as bare text is a shape error, not a misread.
        let bare = enc(&"Replace");
        assert!(matches!(
            from_slice::<Change>(&bare),
            Err(DeError::Shape(_))
        ));
        // A unit variant as a one-entry map with a null value is accepted.
        let mut map = vec![0xa1];
        map.extend(enc(&"Omit"));
        map.push(0xf6);
        assert_eq!(from_slice::<Change>(&map).unwrap(), Change::Omit);
    }

    #[test]
    fn unknown_fields_are_passed_over_and_strings_borrowed() {
        #[derive(Deserialize)]
        struct Narrow<'a> {
            keep: &'a str,
        }
        let wide = serde_json::json!({"skip": [1, {"deep": [2.5, null]}], "keep": "yes"});
        let bytes = enc(&wide);
        assert_eq!(from_slice::<Narrow<'_>>(&bytes).unwrap().keep, "yes");
    }

    #[test]
    fn non_canonical_bodies_get_the_checkers_messages() {
        let message = |bytes: &[u8]| match from_slice::<serde_json::Value>(bytes) {
            Err(e) => e.to_string(),
            Ok(v) => panic!("{bytes:02x?} decoded as {v}"),
        };
        assert!(message(&[0x18, 0x01]).contains("non-shortest"));
        let mut d = vec![0xfb];
        d.extend_from_slice(&1.0f64.to_be_bytes());
        assert!(message(&d).contains("non-shortest float"));
        assert!(message(&[0x9f, 0xff]).contains("indefinite"));
        assert!(message(&[0xc1, 0x00]).contains("tag"));
        assert!(message(&[0xf7]).contains("simple"));
        assert!(message(&[0x00, 0x00]).contains("follow"));
        assert!(message(&[0x82, 0x00]).contains("ends early"));
        assert!(
            message(&[0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).contains("ends early")
        );
        // A skipped field's value is checked too.
        #[derive(Debug, Deserialize)]
        struct Empty {}
        let mut skipped = vec![0xa1, 0x61, b'k', 0x18, 0x01];
        assert!(
            from_slice::<Empty>(&skipped)
                .unwrap_err()
                .to_string()
                .contains("non-shortest")
        );
        skipped[4] = 0x17;
        skipped[3] = 0x17;
        skipped.pop();
        assert!(from_slice::<Empty>(&skipped).is_ok());
        // Nesting beyond the bound.
        let mut deep = vec![0x81; super::MAX_DEPTH + 1];
        deep.push(0x00);
        assert!(message(&deep).contains("nested deeper"));
        let mut fine = vec![0x81; super::MAX_DEPTH];
        fine.push(0x00);
        assert!(from_slice::<serde_json::Value>(&fine).is_ok());
        // Text that is not UTF-8.
        assert!(message(&[0x62, 0xff, 0xfe]).contains("UTF-8"));
    }
}
