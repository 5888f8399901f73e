//! A session's branches as a tree of its messages: each top-level submission is a node, its
//! parent the submission its branch continued, so a message sent again from an earlier point
//! (an edit, a `select` then a message) is a sibling of the one it replaced. Read from the
//! entries' metadata (parent links and kinds, never their bodies) and the submissions alone.

use smith::EntryId;
use smith_store::{Record as Stored, SessionReader};

/// One message of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchNode {
    /// The submission's entry.
    pub entry: EntryId,
    /// The leaf the message was admitted onto: where an edited message starts its new branch
    /// (`None`: the session had no entries on a branch).
    pub destination: Option<EntryId>,
    /// The message as sent.
    pub input: String,
    /// The model (or alias, group) it ran with.
    pub model: String,
    /// When it was sent, milliseconds since the Unix epoch.
    pub timestamp_ms: i64,
    /// How many forks deep it is: 0 for the messages of the first branch, one more for each
    /// branch point with several messages it lies past the first of.
    pub depth: usize,
    /// The newest leaf below it: selecting the node continues that branch.
    pub tip: EntryId,
    /// It starts a branch: a message sent from a point another message was sent from first
    /// (its [`BranchNode::destination`] is that point).
    pub forks: bool,
    /// It lies on the session's selected branch.
    pub selected: bool,
}

/// The tree, in display order: depth first, each node's children oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Branches {
    /// The nodes.
    pub nodes: Vec<BranchNode>,
    /// How many leaves (branches) the session has.
    pub leaves: usize,
    /// The selected leaf.
    pub leaf: Option<EntryId>,
}

/// The message tree of the session at `path`.
///
/// # Errors
/// The store's error when the file or an entry cannot be read.
pub fn branches(path: &std::path::Path) -> Result<Branches, smith_store::Error> {
    let mut reader = SessionReader::open(path)?;
    let last = reader.state().last_id;
    let leaf = reader.state().leaf_id();
    // Parent links of every entry (0: a root or a withheld entry), by id.
    let mut parent = vec![0u64; usize::try_from(last).unwrap_or(0) + 1];
    let mut has_child = vec![false; parent.len()];
    for id in 1..=last {
        if reader.withheld(id) {
            continue;
        }
        if let Ok(meta) = reader.entry_meta(EntryId(id)) {
            parent[id as usize] = meta.parent;
            has_child[meta.parent as usize] = true;
        }
    }
    let mut messages: Vec<BranchNode> = Vec::new();
    reader.for_each_of_kinds(1..=last, &[Stored::SUBMISSION], |e| {
        if let Stored::Submission(s) = &e.record
            && s.owner.is_none()
            && s.delivery.is_none()
        {
            messages.push(BranchNode {
                entry: e.id,
                destination: s.destination,
                input: s.input.clone(),
                model: s.model.to_string(),
                timestamp_ms: e.timestamp_ms,
                depth: 0,
                tip: e.id,
                forks: false,
                selected: false,
            });
        }
    })?;
    let is_message: std::collections::HashMap<u64, usize> = messages
        .iter()
        .enumerate()
        .map(|(i, m)| (m.entry.0, i))
        .collect();
    // The message an entry lies under: the nearest submission at or above it.
    let above = |mut id: u64| -> Option<usize> {
        while id != 0 {
            if let Some(i) = is_message.get(&id) {
                return Some(*i);
            }
            id = parent.get(id as usize).copied().unwrap_or(0);
        }
        None
    };
    let tree_parent: Vec<Option<usize>> = messages
        .iter()
        .map(|m| parent.get(m.entry.0 as usize).and_then(|p| above(*p)))
        .collect();
    // Every leaf raises the tip of the messages above it (ids grow: the last seen is newest).
    let mut leaves = 0;
    for id in 1..=last {
        if has_child[id as usize] || (id != 1 && parent[id as usize] == 0) {
            continue;
        }
        leaves += 1;
        let mut at = above(id);
        while let Some(i) = at {
            messages[i].tip = EntryId(id);
            at = tree_parent[i];
        }
    }
    if let Some(l) = leaf {
        let mut at = above(l.0);
        while let Some(i) = at {
            messages[i].selected = true;
            at = tree_parent[i];
        }
    }
    // Depth first, children oldest first; a node's first child stays at its depth, later
    // ones (the branches that forked there) go one deeper.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); messages.len()];
    let mut roots = Vec::new();
    for (i, p) in tree_parent.iter().enumerate() {
        match p {
            Some(p) => children[*p].push(i),
            None => roots.push(i),
        }
    }
    let mut order = Vec::with_capacity(messages.len());
    // (message, depth, whether it starts a branch); roots after the first are branches too.
    let mut stack: Vec<(usize, usize, bool)> = roots
        .iter()
        .enumerate()
        .rev()
        .map(|(k, r)| (*r, usize::from(k > 0), k > 0))
        .collect();
    while let Some((i, depth, forks)) = stack.pop() {
        order.push((i, depth, forks));
        for (k, child) in children[i].iter().enumerate().rev() {
            stack.push((*child, depth + usize::from(k > 0), k > 0));
        }
    }
    let nodes = order
        .into_iter()
        .map(|(i, depth, forks)| BranchNode {
            depth,
            forks,
            ..messages[i].clone()
        })
        .collect();
    Ok(Branches {
        nodes,
        leaves,
        leaf,
    })
}
