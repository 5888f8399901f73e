//! The scope table as a report: per kind, and each scope still taken (open, or closed with
//! blocks still live). Building a report allocates; it is never called by the allocator.

use std::fmt;

use crate::{Figures, Kind, slots};

/// One scope still in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScopeRow {
    /// Its slot number (stable while the scope is taken).
    pub slot: u32,
    /// Its kind.
    pub kind: Kind,
    /// Whether it is open; a closed one is listed while blocks it allocated are live.
    pub open: bool,
    /// Its figures.
    pub figures: Figures,
}

/// The process's scope table at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Whether the accounting allocator is installed (else every figure is zero).
    pub installed: bool,
    /// Per kind: its figures ([`crate::kind_figures`]), how many scopes it had, its ceiling.
    pub kinds: Vec<(Kind, Figures, u64, Option<std::num::NonZeroU64>)>,
    /// The scopes still taken, in slot order.
    pub scopes: Vec<ScopeRow>,
    /// Blocks another allocator made that were freed or resized through this one
    /// ([`crate::foreign_blocks`]): not accounted.
    pub foreign: u64,
}

/// The process's scope table now.
pub fn report() -> Report {
    let kinds = Kind::ALL
        .into_iter()
        .map(|kind| {
            let (figures, scopes) = slots::kind_totals(kind);
            (kind, figures, scopes, crate::ceiling(kind))
        })
        .collect();
    let mut scopes = Vec::new();
    slots::each(|slot, kind, open, figures| {
        scopes.push(ScopeRow {
            slot,
            kind,
            open,
            figures,
        });
    });
    Report {
        installed: crate::installed(),
        kinds,
        scopes,
        foreign: crate::foreign_blocks(),
    }
}

impl Report {
    /// The sum of every kind's allocations, allocated bytes and live bytes: the process's
    /// whole heap as the accounting saw it.
    pub fn total(&self) -> Figures {
        self.kinds
            .iter()
            .fold(Figures::default(), |total, (_, f, _, _)| Figures {
                allocations: total.allocations + f.allocations,
                allocated_bytes: total.allocated_bytes + f.allocated_bytes,
                live_bytes: total.live_bytes + f.live_bytes,
                peak_live_bytes: total.peak_live_bytes.max(f.peak_live_bytes),
                ceiling_crossed: total.ceiling_crossed || f.ceiling_crossed,
            })
    }
}

/// A figure of bytes for people: `812 B`, `4.0 KiB`, `12.3 MiB`, `1.2 GiB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

impl fmt::Display for Report {
    /// A table: one line per kind (allocations, allocated, live, peak, scopes, ceiling), a
    /// total, then one line per scope still taken.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.installed {
            writeln!(
                f,
                "memory accounting is not installed in this process: no figures"
            )?;
        }
        writeln!(
            f,
            "{:<12} {:>12} {:>12} {:>12} {:>12} {:>7}  ceiling",
            "scope", "allocations", "allocated", "live", "peak", "scopes"
        )?;
        for (kind, figures, scopes, ceiling) in &self.kinds {
            let ceiling = match ceiling {
                Some(c) if figures.ceiling_crossed => format!("{} (crossed)", bytes(c.get())),
                Some(c) => bytes(c.get()),
                None => "none".to_owned(),
            };
            writeln!(
                f,
                "{:<12} {:>12} {:>12} {:>12} {:>12} {:>7}  {ceiling}",
                kind.name(),
                figures.allocations,
                bytes(figures.allocated_bytes),
                bytes(figures.live_bytes),
                bytes(figures.peak_live_bytes),
                scopes
            )?;
        }
        let total = self.total();
        writeln!(
            f,
            "{:<12} {:>12} {:>12} {:>12}",
            "total",
            total.allocations,
            bytes(total.allocated_bytes),
            bytes(total.live_bytes)
        )?;
        if self.foreign > 0 {
            writeln!(
                f,
                "({} blocks another allocator made were freed through this one, unaccounted)",
                self.foreign
            )?;
        }
        if !self.scopes.is_empty() {
            writeln!(f, "\nlive scopes:")?;
        }
        for row in &self.scopes {
            writeln!(
                f,
                "  #{:<5} {:<12} {:<6} {:>12} allocations, {} allocated, {} live, {} peak{}",
                row.slot,
                row.kind.name(),
                if row.open { "open" } else { "closed" },
                row.figures.allocations,
                bytes(row.figures.allocated_bytes),
                bytes(row.figures.live_bytes),
                bytes(row.figures.peak_live_bytes),
                if row.figures.ceiling_crossed {
                    ", past its ceiling"
                } else {
                    ""
                }
            )?;
        }
        Ok(())
    }
}
