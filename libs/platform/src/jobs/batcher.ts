export interface BatcherOptions {
  /** A batch is written this long after its first item at the latest (0: at the next turn of the event loop). */
  maxWaitMs: number;
  /** A batch is written as soon as it holds this many items. */
  maxItems: number;
}

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Collects items for one `write` of many (e.g. one queued job for many webhook callbacks): `add`
 * resolves once the write of its batch has succeeded and rejects with its error, so a caller that
 * answers after `add` answers only for what was written. Batches keep the order items came in,
 * and each is written in that order (a later one may start before an earlier one has finished).
 */
export class Batcher<T> {
  private batch: Array<Waiting<T>> = [];
  private timer: NodeJS.Timeout | NodeJS.Immediate | undefined;

  constructor(
    private readonly write: (items: T[]) => Promise<unknown>,
    private readonly options: BatcherOptions,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.batch.push({ item, resolve, reject });
      if (this.batch.length >= this.options.maxItems) this.flush();
      else if (this.timer === undefined)
        this.timer =
          this.options.maxWaitMs > 0
            ? setTimeout(() => this.flush(), this.options.maxWaitMs)
            : setImmediate(() => this.flush());
    });
  }

  /** Writes the items waiting now, if any, without waiting for their batch to fill. */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer as NodeJS.Timeout);
      clearImmediate(this.timer as NodeJS.Immediate);
      this.timer = undefined;
    }
    const batch = this.batch;
    if (batch.length === 0) return;
    this.batch = [];
    this.write(batch.map((waiting) => waiting.item)).then(
      () => {
        for (const waiting of batch) waiting.resolve();
      },
      (error: unknown) => {
        for (const waiting of batch) waiting.reject(error);
      },
    );
  }
}
