//! Encoding 1,000 representative entries as the writer stores them (fixed metadata, canonical
//! CBOR, compression of eligible bodies): what `store_bench` and `encode_accounted` time.

use std::time::Instant;

use smith::EntryId;
use smith_store::{EntryHead, Record, entry_payload};

/// The median of 20 encodings of 1,000 entries, in milliseconds.
pub(crate) fn encode_1000_ms() -> Result<f64, smith_store::Error> {
    let records: Vec<Record> = (0..1000).map(smith_testkit::representative).collect();
    let mut samples = Vec::new();
    for _ in 0..20 {
        let start = Instant::now();
        let mut bytes = 0usize;
        for (i, r) in records.iter().enumerate() {
            let head = EntryHead {
                id: EntryId(i as u64 + 2),
                parent: Some(EntryId(i as u64 + 1)),
                pair: None,
                timestamp_ms: 1_700_000_000_000,
            };
            bytes += entry_payload(&head, r)?.len();
        }
        samples.push(start.elapsed());
        assert!(bytes > 0);
    }
    samples.sort();
    Ok(samples[10].as_secs_f64() * 1000.0)
}
