/** Walks a list operation page by page and yields its rows. */

interface Page {
  data: unknown[];
  pagination: { limit: number; offset: number; total: number; has_more: boolean; next_after?: string | null };
}

/**
 * The change feed pages by cursor: each answer's next_after is the next call's `after`. Every
 * other list pages by offset (the API keeps deep offsets exact). Either walk ends when has_more
 * is false (the feed's last next_after is then the cursor to poll from later), or on an empty
 * page, so a list that shrinks while it is walked cannot loop.
 */
export async function* iteratePages(
  fetchPage: (query: Record<string, unknown>) => Promise<unknown>,
  query: Record<string, unknown>,
): AsyncGenerator<unknown> {
  let next: Record<string, unknown> = { ...query };
  for (;;) {
    const page = (await fetchPage(next)) as Page;
    yield* page.data;
    if (page.data.length === 0) return;
    const { pagination } = page;
    if (!pagination.has_more) return;
    next =
      pagination.next_after != null ? { ...next, after: pagination.next_after } : { ...next, offset: pagination.offset + page.data.length };
  }
}
