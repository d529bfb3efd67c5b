//! A list held on the stack up to `N` items, on the heap beyond: the contact patch's features and
//! polygons (a hull's triangle, a box face, their clipped overlap) without an allocation, and
//! without a limit on the rare long ones (a cylinder cap's 24-gon, a hull face of many coplanar
//! vertices).

use std::ops::{Deref, DerefMut};

#[derive(Clone, Debug)]
pub(super) enum SmallList<T: Copy + Default, const N: usize> {
    Inline { len: usize, items: [T; N] },
    Heap(Vec<T>),
}

impl<T: Copy + Default, const N: usize> SmallList<T, N> {
    #[inline]
    pub(super) fn new() -> Self {
        SmallList::Inline { len: 0, items: [T::default(); N] }
    }

    /// `item` at the end. (Only the stack's case is inlined: each call site's code is a compare
    /// and a store, and the patch's many call sites stay small in the instruction cache.)
    #[inline(always)]
    pub(super) fn push(&mut self, item: T) {
        if let SmallList::Inline { len, items } = self {
            if *len < N {
                items[*len] = item;
                *len += 1;
                return;
            }
        }
        self.push_beyond(item);
    }

    /// [`SmallList::push`] on the heap: the list full on the stack moved there first.
    #[cold]
    #[inline(never)]
    fn push_beyond(&mut self, item: T) {
        match self {
            SmallList::Inline { .. } => {
                let mut heap = Vec::with_capacity(2 * N);
                heap.extend_from_slice(self);
                heap.push(item);
                *self = SmallList::Heap(heap);
            }
            SmallList::Heap(heap) => heap.push(item),
        }
    }

    #[inline]
    pub(super) fn clear(&mut self) {
        match self {
            SmallList::Inline { len, .. } => *len = 0,
            SmallList::Heap(heap) => heap.clear(),
        }
    }
}

impl<T: Copy + Default, const N: usize> Default for SmallList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for SmallList<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            SmallList::Inline { len, items } => &items[..*len],
            SmallList::Heap(heap) => heap,
        }
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for SmallList<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            SmallList::Inline { len, items } => &mut items[..*len],
            SmallList::Heap(heap) => heap,
        }
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for SmallList<T, N> {
    // (Always: compiled inside each copy of hull_dispatch.rs.)
    #[inline(always)]
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = Self::new();
        for item in iter {
            list.push(item);
        }
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_keeps_its_items_in_order_on_the_stack_and_past_it() {
        let mut list: SmallList<u32, 4> = SmallList::new();
        for k in 0..3 {
            list.push(k);
        }
        assert!(matches!(list, SmallList::Inline { len: 3, .. }));
        assert_eq!(&list[..], &[0, 1, 2]);
        for k in 3..10 {
            list.push(k);
        }
        assert!(matches!(list, SmallList::Heap(_)));
        assert_eq!(&list[..], &(0..10).collect::<Vec<_>>()[..]);
        list.reverse();
        assert_eq!(list[0], 9);
        list.clear();
        assert!(list.is_empty());
        let collected: SmallList<u32, 4> = (0..4).collect();
        assert!(matches!(collected, SmallList::Inline { len: 4, .. }));
        assert_eq!(&collected[..], &[0, 1, 2, 3]);
    }
}
