/**
 * `head`, then the rest of `iterator`: a body whose first chunk was read ahead (to see whether
 * it is empty, or which decoder it needs) handed on whole. A generator of this module, not one
 * made per response: see docs/performance.md, "Arrows made per request".
 */
export async function* prepended(head: Uint8Array, iterator: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield head;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
}
