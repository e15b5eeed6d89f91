//! The JSON of an export: an array of answer objects, one per line as `knights export` writes
//! it, read by hand-written serde visitors so that each record is checked as it comes, with
//! the line it starts on, and nothing but the answers is kept.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::io::Read;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::record::{Fields, Kept, answer_from_fields, bounded, empty_fields};
use crate::echo::echo;
use crate::input::{InputError, TextReader};
use crate::memory::MemoryBudget;
use crate::store::{ANSWER_COLUMNS, Answer};

pub(super) fn read_json<R: Read>(
    text: &mut TextReader<R>,
    budget: MemoryBudget,
) -> Result<Vec<(usize, Answer)>, InputError> {
    let line = text.line_counter();
    let failure = RefCell::new(None);
    let mut kept = Kept::new(budget);
    let result = {
        let mut parser = serde_json::Deserializer::from_reader(&mut *text);
        let records = Records {
            line: &line,
            failure: &failure,
            kept: &mut kept,
        };
        parser.deserialize_any(records).and_then(|()| parser.end())
    };
    if let Err(e) = result {
        let fault = text.take_error().or_else(|| failure.take());
        return Err(
            fault.unwrap_or_else(|| InputError::at(e.line(), format!("malformed JSON: {e}")))
        );
    }
    Ok(kept.answers)
}

/// Keeps `e` for [`read_json`] and stops the JSON parser.
fn refuse<E: de::Error>(failure: &RefCell<Option<InputError>>, e: InputError) -> E {
    *failure.borrow_mut() = Some(e);
    E::custom("refused")
}

/// The top-level JSON array, read one record at a time (each checked as it comes).
struct Records<'a> {
    /// The line the JSON reader is on.
    line: &'a Cell<usize>,
    /// Why the records were refused.
    failure: &'a RefCell<Option<InputError>>,
    kept: &'a mut Kept,
}

impl Records<'_> {
    fn not_an_array<E: de::Error>(&self) -> E {
        refuse(
            self.failure,
            InputError::whole("the JSON must be an array of answer objects"),
        )
    }
}

impl<'de> Visitor<'de> for Records<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of answer objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let record = || Record {
            line: self.line,
            failure: self.failure,
        };
        while let Some((line, fields)) = seq.next_element_seed(record())? {
            let answer = answer_from_fields(&fields, line).map_err(|e| refuse(self.failure, e))?;
            self.kept
                .push(line, answer)
                .map_err(|e| refuse(self.failure, e))?;
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(self.not_an_array())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Err(self.not_an_array())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Err(self.not_an_array())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Err(self.not_an_array())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Err(self.not_an_array())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Err(self.not_an_array())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Err(self.not_an_array())
    }
}

/// One element of the array: an answer object, read field by field, with the line it starts
/// on. An unknown field or a value that is not a string, a number or null stops the reading.
struct Record<'a> {
    line: &'a Cell<usize>,
    failure: &'a RefCell<Option<InputError>>,
}

impl Record<'_> {
    fn not_an_object<E: de::Error>(&self) -> E {
        refuse(
            self.failure,
            InputError::at(self.line.get(), "each answer must be a JSON object"),
        )
    }
}

impl<'de> DeserializeSeed<'de> for Record<'_> {
    type Value = (usize, Fields);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Record<'_> {
    type Value = (usize, Fields);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an answer object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        // The parser has just read the object's `{`.
        let line = self.line.get();
        let refused = |e: InputError| refuse::<A::Error>(self.failure, e);
        let mut fields = empty_fields();
        let mut count_is_a_number = false;
        while let Some(key) = map.next_key::<String>()? {
            let Some(&name) = ANSWER_COLUMNS.iter().find(|&&name| name == key) else {
                return Err(refused(InputError::at(
                    line,
                    format!("unknown field '{}'", echo(&key)),
                )));
            };
            let (value, is_a_number) = map.next_value_seed(FieldValue {
                name,
                line,
                failure: self.failure,
            })?;
            if name == "count" {
                count_is_a_number = is_a_number;
            }
            let value = match value {
                Some(value) => Some(bounded(name, &value, line).map_err(refused)?),
                None => None,
            };
            fields.insert(name, value);
        }
        if count_is_a_number {
            return Err(refused(InputError::at(
                line,
                "count must be a string of digits (JSON numbers lose digits above 2^53)",
            )));
        }
        Ok((line, fields))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.not_an_object())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(self.not_an_object())
    }
}

/// The value of a field: a string, a number (as JSON writes it) or null (`None`), and whether it
/// was a number.
struct FieldValue<'a> {
    name: &'static str,
    line: usize,
    failure: &'a RefCell<Option<InputError>>,
}

impl FieldValue<'_> {
    fn refuse<E: de::Error>(&self, found: &str) -> E {
        refuse(
            self.failure,
            InputError::at(
                self.line,
                format!("{} must be a string or a number, found {found}", self.name),
            ),
        )
    }
}

impl<'de> DeserializeSeed<'de> for FieldValue<'_> {
    type Value = (Option<String>, bool);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FieldValue<'_> {
    type Value = (Option<String>, bool);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, a number or null")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        Ok((Some(value.to_string()), false))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Self::Value, E> {
        Ok((Some(value.to_string()), true))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Self::Value, E> {
        Ok((Some(value.to_string()), true))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Self::Value, E> {
        // As JSON writes it (3.0 stays "3.0", not a whole number of rows).
        let text = serde_json::Number::from_f64(value).map_or(value.to_string(), |n| n.to_string());
        Ok((Some(text), true))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok((None, false))
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Self::Value, E> {
        Err(self.refuse(&value.to_string()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.refuse("an array"))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.refuse("an object"))
    }
}
