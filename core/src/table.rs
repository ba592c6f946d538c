//! The fixed-capacity table each part of a workspace keeps its items in.
//!
//! A [`Table`] is generic over its item and over its [`Slots`]: an inline array (no allocator
//! needed, capacity checked at compile time) or a boxed slice allocated once. Either way a table
//! never grows: pushing into a full one hands the item back.

/// Slots of a table: a fixed-length slice, owned by the workspace.
pub trait Slots<T>: AsRef<[T]> + AsMut<[T]> {}
impl<T, S: AsRef<[T]> + AsMut<[T]>> Slots<T> for S {}

/// A fixed-capacity, order-keeping table over slots that exist from the start.
#[derive(Clone, Debug)]
pub(crate) struct Table<T, S> {
    slots: S,
    len: usize,
    _t: core::marker::PhantomData<T>,
}

impl<T: Default, S: Slots<T>> Table<T, S> {
    pub(crate) fn new(slots: S) -> Self {
        Self {
            slots,
            len: 0,
            _t: core::marker::PhantomData,
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.slots.as_ref().len()
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn is_full(&self) -> bool {
        self.len == self.capacity()
    }

    pub(crate) fn as_slice(&self) -> &[T] {
        &self.slots.as_ref()[..self.len]
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.slots.as_mut()[..self.len]
    }

    /// Appends `item`, or hands it back when the table is full.
    pub(crate) fn push(&mut self, item: T) -> Result<usize, T> {
        if self.is_full() {
            return Err(item);
        }
        let i = self.len;
        self.slots.as_mut()[i] = item;
        self.len += 1;
        Ok(i)
    }

    /// Removes slot `i`, keeping the order of the others; returns the item.
    pub(crate) fn remove(&mut self, i: usize) -> T {
        let slots = &mut self.slots.as_mut()[..self.len];
        slots[i..].rotate_left(1);
        self.len -= 1;
        core::mem::take(&mut self.slots.as_mut()[self.len])
    }

    /// Makes this table hold `other`'s items, slot by slot (nothing allocated); `Err(())` and
    /// nothing changed if `other` holds more than this table can.
    pub(crate) fn copy_from<S2: Slots<T>>(&mut self, other: &Table<T, S2>) -> Result<(), ()>
    where
        T: Clone,
    {
        if other.len > self.capacity() {
            return Err(());
        }
        for (mine, theirs) in self.slots.as_mut().iter_mut().zip(other.as_slice()) {
            mine.clone_from(theirs);
        }
        for s in &mut self.slots.as_mut()[other.len..self.len.max(other.len)] {
            *s = T::default();
        }
        self.len = other.len;
        Ok(())
    }

    pub(crate) fn clear(&mut self) {
        for s in self.as_mut_slice() {
            *s = T::default();
        }
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_table_hands_the_item_back_and_remove_keeps_order() {
        let mut t: Table<u32, [u32; 3]> = Table::new([0; 3]);
        assert_eq!(t.push(1), Ok(0));
        assert_eq!(t.push(2), Ok(1));
        assert_eq!(t.push(3), Ok(2));
        assert_eq!(t.push(4), Err(4));
        assert_eq!(t.remove(0), 1);
        assert_eq!(t.as_slice(), &[2, 3]);
        assert_eq!(t.push(5), Ok(2));
        assert_eq!(t.as_slice(), &[2, 3, 5]);
        t.clear();
        assert_eq!(t.len(), 0);
    }

    #[test]
    fn copy_from_takes_the_other_items_and_clears_the_rest() {
        let mut a: Table<u32, [u32; 4]> = Table::new([0; 4]);
        for x in [1, 2, 3] {
            let _ = a.push(x);
        }
        let mut b: Table<u32, [u32; 2]> = Table::new([0; 2]);
        let _ = b.push(9);
        assert_eq!(a.copy_from(&b), Ok(()));
        assert_eq!(a.as_slice(), &[9]);
        // The slots past the copy are empty again, not stale.
        assert_eq!(a.slots, [9, 0, 0, 0]);
        // A bigger table does not fit a smaller one: nothing changes.
        let _ = a.push(4);
        let _ = a.push(5);
        let _ = a.push(6);
        assert_eq!(b.copy_from(&a), Err(()));
        assert_eq!(b.as_slice(), &[9]);
    }
}
