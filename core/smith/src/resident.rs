//! What an open session keeps running for its plugins between tool calls (spec: Tools →
//! Native SDK facilities; the MCP client issue's "plugins that live across calls"): each tool
//! call gets a fresh plugin instance, so anything that must outlive one call — a program
//! started once and talked to by later calls — is held by the host here, by handle, and a
//! later call's instance reaches it again by that handle.
//!
//! One [`Resident`] belongs to one open session. The host keeps its own kinds of resource in
//! it by type; dropping the session drops them, and each kind's `Drop` tears its resources
//! down (a program's process group is terminated).

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The resources an open session holds for its plugins between tool calls, one value per
/// type. Cheap to create; nothing is allocated until a host facility first keeps something.
#[derive(Default)]
pub struct Resident {
    slots: Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

impl Resident {
    /// An empty holder.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The session's `T`, made with `T::default()` on first use. The same value for every
    /// call of the session; it lives until the session (and every call still holding it)
    /// lets go.
    pub fn get_or_default<T: Any + Send + Sync + Default>(&self) -> Arc<T> {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        let slot = slots
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Arc::new(T::default()));
        match Arc::clone(slot).downcast::<T>() {
            Ok(value) => value,
            // The map is keyed by the value's own type id, so the downcast always holds; a
            // value of another type would be replaced rather than trusted.
            Err(_) => {
                let value = Arc::new(T::default());
                *slot = value.clone();
                value
            }
        }
    }

    /// Keep `value` as the session's `T` (replacing one kept before): what a frontend hands
    /// the session's facilities, e.g. an attached [`crate::Editor`].
    pub fn put<T: Any + Send + Sync>(&self, value: Arc<T>) {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots.insert(TypeId::of::<T>(), value);
    }

    /// The session's `T`, if a facility has kept one.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots
            .get(&TypeId::of::<T>())
            .and_then(|slot| Arc::clone(slot).downcast::<T>().ok())
    }
}

impl std::fmt::Debug for Resident {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kinds = self
            .slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len();
        f.debug_struct("Resident").field("kinds", &kinds).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Counter(std::sync::atomic::AtomicU32);

    #[test]
    fn one_value_per_type_shared_by_every_call() {
        let resident = Resident::new();
        assert!(resident.get::<Counter>().is_none());
        let a = resident.get_or_default::<Counter>();
        a.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let b = resident.get_or_default::<Counter>();
        assert_eq!(b.0.load(std::sync::atomic::Ordering::Relaxed), 1);
        assert!(Arc::ptr_eq(&a, &b));
        assert!(resident.get::<Counter>().is_some());
    }
}
