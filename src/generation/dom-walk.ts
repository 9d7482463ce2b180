import { type ChildNode, type Element, isTag, type ParentNode } from 'domhandler';

/**
 * Depth-first over elements in document order; `visit` returning false skips that element's subtree.
 * Iterative (a stack of nodes to visit, not of calls), so no document is too deep for it.
 */
export function forEachElement(node: ParentNode, visit: (el: Element) => boolean | undefined): void {
  const pending: ChildNode[] = [];
  const pushChildren = (parent: ParentNode) => {
    for (let i = parent.children.length - 1; i >= 0; i--) pending.push(parent.children[i]!);
  };
  pushChildren(node);
  while (pending.length > 0) {
    const child = pending.pop()!;
    if (isTag(child) && visit(child) !== false) pushChildren(child);
  }
}

/** The first element named `name`, depth-first in document order; null when there is none. */
export function findFirst(node: ParentNode, name: string): Element | null {
  let found: Element | null = null;
  forEachElement(node, (el) => {
    if (found) return false;
    if (el.name === name) found = el;
    return !found;
  });
  return found;
}
