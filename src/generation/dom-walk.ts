import { type ChildNode, type Element, isTag, type ParentNode } from 'domhandler';

/** Depth-first over elements in document order; `visit` returning false skips that element's subtree. */
export function forEachElement(node: ParentNode, visit: (el: Element) => boolean | undefined): void {
  for (const child of node.children as ChildNode[]) {
    if (isTag(child) && visit(child) !== false) forEachElement(child, visit);
  }
}

export function findFirst(node: ParentNode, name: string): Element | null {
  let found: Element | null = null;
  forEachElement(node, (el) => {
    if (found) return false;
    if (el.name === name) found = el;
    return !found;
  });
  return found;
}
