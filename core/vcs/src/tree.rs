//! Reading a snapshot's tree back as a flat list of files.

use std::collections::BTreeMap;

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::{SnapshotId, Vcs, VcsError};

/// Path (relative, `/`-separated bytes) → (kind, blob id), in path order.
pub(crate) type Files = BTreeMap<Vec<u8>, (EntryKind, ObjectId)>;

impl Vcs {
    /// Every file and link of snapshot `id`.
    pub(crate) fn files(&self, id: SnapshotId) -> Result<Files, VcsError> {
        let mut out = Files::new();
        let tree = self.tree_of(id)?;
        self.flatten(tree, &mut Vec::new(), &mut out)?;
        Ok(out)
    }

    fn flatten(
        &self,
        tree: ObjectId,
        prefix: &mut Vec<u8>,
        out: &mut Files,
    ) -> Result<(), VcsError> {
        let err = |e: &dyn std::fmt::Display| VcsError::repo(&self.dir, e);
        let tree = self.repo.find_tree(tree).map_err(|e| err(&e))?;
        let decoded = tree.decode().map_err(|e| err(&e))?;
        for entry in &decoded.entries {
            let len = prefix.len();
            if !prefix.is_empty() {
                prefix.push(b'/');
            }
            prefix.extend_from_slice(entry.filename);
            match entry.mode.kind() {
                EntryKind::Tree => self.flatten(entry.oid.to_owned(), prefix, out)?,
                EntryKind::Commit => {}
                kind => {
                    out.insert(prefix.clone(), (kind, entry.oid.to_owned()));
                }
            }
            prefix.truncate(len);
        }
        Ok(())
    }

    /// The bytes of blob `id`.
    pub(crate) fn blob(&self, id: ObjectId) -> Result<Vec<u8>, VcsError> {
        self.repo
            .find_blob(id)
            .map(|b| b.data.clone())
            .map_err(|e| VcsError::repo(&self.dir, e))
    }
}
