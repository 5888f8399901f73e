//! Deserializing a [`ContentBlock`]: its wire form is an internally tagged map (`type` names
//! the variant). Serde's derived form for such enums buffers every block into an intermediate
//! value before reading it again; Smith writes `type` first (as every serializer of the
//! derived form does), so when it comes first the block is read in one pass, and only a block
//! whose `type` comes later (JSON from elsewhere) takes the buffered way. Both accept exactly
//! the same inputs.

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::{ContentBlock, Image, ToolCall};

/// The derived form: the buffered way, and the reference the fast way matches.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Buffered {
    Text {
        text: String,
    },
    Thinking {
        text: String,
        #[serde(default)]
        signature: Option<String>,
        #[serde(default)]
        redacted: bool,
    },
    ToolCall(ToolCall),
    Image(Image),
}

impl From<Buffered> for ContentBlock {
    fn from(b: Buffered) -> Self {
        match b {
            Buffered::Text { text } => Self::Text { text },
            Buffered::Thinking {
                text,
                signature,
                redacted,
            } => Self::Thinking {
                text,
                signature,
                redacted,
            },
            Buffered::ToolCall(c) => Self::ToolCall(c),
            Buffered::Image(i) => Self::Image(i),
        }
    }
}

/// The variants' wire names.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Text,
    Thinking,
    ToolCall,
    Image,
}

/// Every field name a block may have; others are ignored, as the derived form ignores them.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum Field {
    Type,
    Text,
    Signature,
    Redacted,
    Id,
    Name,
    Arguments,
    MediaType,
    Data,
    #[serde(other)]
    Other,
}

/// A block's first key: `type` (read without allocating), or another, kept for the buffered
/// way.
enum FirstKey {
    Type,
    Other(String),
}

impl<'de> Deserialize<'de> for FirstKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = FirstKey;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a field name")
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<FirstKey, E> {
                Ok(if key == "type" {
                    FirstKey::Type
                } else {
                    FirstKey::Other(key.to_owned())
                })
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

struct BlockVisitor;

impl<'de> Visitor<'de> for BlockVisitor {
    type Value = ContentBlock;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a content block: a map with a `type`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ContentBlock, A::Error> {
        // The fast way needs `type` first; otherwise the block is buffered whole.
        match map.next_key::<FirstKey>()? {
            Some(FirstKey::Type) => {}
            None => return Err(de::Error::missing_field("type")),
            Some(FirstKey::Other(key)) => {
                let mut value = serde_json::Map::new();
                let v: serde_json::Value = map.next_value()?;
                value.insert(key, v);
                while let Some((k, v)) = map.next_entry::<String, serde_json::Value>()? {
                    value.insert(k, v);
                }
                return serde_json::from_value::<Buffered>(serde_json::Value::Object(value))
                    .map(ContentBlock::from)
                    .map_err(de::Error::custom);
            }
        }
        let kind: Kind = map.next_value()?;
        let mut text = None;
        let mut signature = None;
        let mut redacted = None;
        let mut id = None;
        let mut name = None;
        let mut arguments = None;
        let mut media_type = None;
        let mut data = None;
        fn once<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
            map: &mut A,
            slot: &mut Option<T>,
            field: &'static str,
        ) -> Result<(), A::Error> {
            if slot.is_some() {
                return Err(de::Error::duplicate_field(field));
            }
            *slot = Some(map.next_value()?);
            Ok(())
        }
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::Type => return Err(de::Error::duplicate_field("type")),
                Field::Text => once(&mut map, &mut text, "text")?,
                Field::Signature => once(&mut map, &mut signature, "signature")?,
                Field::Redacted => once(&mut map, &mut redacted, "redacted")?,
                Field::Id => once(&mut map, &mut id, "id")?,
                Field::Name => once(&mut map, &mut name, "name")?,
                Field::Arguments => once(&mut map, &mut arguments, "arguments")?,
                Field::MediaType => once(&mut map, &mut media_type, "media_type")?,
                Field::Data => once(&mut map, &mut data, "data")?,
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let need = |v: Option<String>, field: &'static str| {
            v.ok_or_else(|| de::Error::missing_field(field))
        };
        Ok(match kind {
            Kind::Text => ContentBlock::Text {
                text: need(text, "text")?,
            },
            Kind::Thinking => ContentBlock::Thinking {
                text: need(text, "text")?,
                signature: signature.flatten(),
                redacted: redacted.unwrap_or(false),
            },
            Kind::ToolCall => ContentBlock::ToolCall(ToolCall {
                id: need(id, "id")?,
                name: need(name, "name")?,
                arguments: arguments.ok_or_else(|| de::Error::missing_field("arguments"))?,
            }),
            Kind::Image => ContentBlock::Image(Image {
                media_type: need(media_type, "media_type")?,
                data: need(data, "data")?,
            }),
        })
    }
}

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(BlockVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast way and the derived form agree on every input: both orders of `type`, missing
    /// and duplicate fields, unknown fields, every variant.
    #[test]
    fn the_fast_way_accepts_exactly_what_the_derived_form_accepts() {
        let cases = [
            r#"{"type":"text","text":"hi"}"#,
            r#"{"text":"hi","type":"text"}"#,
            r#"{"type":"text"}"#,
            r#"{"type":"text","text":"a","text":"b"}"#,
            r#"{"type":"text","text":"hi","extra":[1,2]}"#,
            r#"{"type":"thinking","text":"t"}"#,
            r#"{"type":"thinking","text":"","signature":"s","redacted":true}"#,
            r#"{"type":"thinking","text":"t","signature":null}"#,
            r#"{"type":"tool_call","id":"c1","name":"ls","arguments":{"a":1}}"#,
            r#"{"id":"c1","type":"tool_call","name":"ls","arguments":null}"#,
            r#"{"type":"tool_call","id":"c1","name":"ls"}"#,
            r#"{"type":"image","media_type":"image/png","data":"AAAA"}"#,
            r#"{"type":"video","data":"x"}"#,
            r#"{}"#,
            r#"[]"#,
            r#""text""#,
        ];
        for case in cases {
            let fast = serde_json::from_str::<ContentBlock>(case).ok();
            let derived = serde_json::from_str::<Buffered>(case)
                .ok()
                .map(ContentBlock::from);
            assert_eq!(fast, derived, "{case}");
        }
    }
}
