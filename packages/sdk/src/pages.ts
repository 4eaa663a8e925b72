/** A page of a list, as Billow answers it. */
export interface ListPage<Item> {
  count: number;
  next: string | null;
  previous: string | null;
  results: Item[];
}

/**
 * What a list method answers: await it for one page, or iterate it with `for await` for
 * every item of every page from there on, fetched a page at a time as the loop goes.
 */
export class PagePromise<Item, Page extends ListPage<Item> = ListPage<Item>> implements PromiseLike<Page>, AsyncIterable<Item> {
  private first: Promise<Page> | undefined;

  constructor(
    private readonly fetchPage: (page: number) => Promise<Page>,
    private readonly startPage: number,
  ) {}

  private firstPage(): Promise<Page> {
    this.first ??= this.fetchPage(this.startPage);
    return this.first;
  }

  then<A = Page, B = never>(
    onFulfilled?: ((page: Page) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page | B> {
    return this.firstPage().catch(onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    let page = await this.firstPage();
    for (let number = this.startPage; ; ) {
      yield* page.results;
      if (page.next === null || page.results.length === 0) return;
      page = await this.fetchPage(++number);
    }
  }

  /** Every item from here to the end, in one array (mind the size of the list). */
  async toArray(): Promise<Item[]> {
    const items: Item[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
