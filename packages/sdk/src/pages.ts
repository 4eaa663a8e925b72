/** A page of a list, as Billow answers it. */
export interface ListPage<Item> {
  count: number;
  next: string | null;
  previous: string | null;
  results: Item[];
}

/** What every list answers: a page of items and the link to the next, if any (the audit log has no count). */
export interface Page<Item> {
  results: Item[];
  next: string | null;
}

/** Fetches the page after `previous` (null: the first page), `number` counting from the first one asked for. */
export type PageFetcher<P> = (number: number, previous: P | null) => Promise<P>;

/**
 * What a list method answers: await it for one page, or iterate it with `for await` for
 * every item of every page from there on, fetched a page at a time as the loop goes.
 */
export class PagePromise<Item, P extends Page<Item> = ListPage<Item>> implements PromiseLike<P>, AsyncIterable<Item> {
  private first: Promise<P> | undefined;

  constructor(
    private readonly fetchPage: PageFetcher<P>,
    private readonly startPage: number,
  ) {}

  private firstPage(): Promise<P> {
    this.first ??= this.fetchPage(this.startPage, null);
    return this.first;
  }

  then<A = P, B = never>(
    onFulfilled?: ((page: P) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<P | B> {
    return this.firstPage().catch(onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    let page = await this.firstPage();
    for (let number = this.startPage; ; ) {
      yield* page.results;
      if (page.next === null || page.results.length === 0) return;
      page = await this.fetchPage(++number, page);
    }
  }

  /** Every item from here to the end, in one array (mind the size of the list). */
  async toArray(): Promise<Item[]> {
    const items: Item[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
