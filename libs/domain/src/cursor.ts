import type { DataSource } from 'typeorm';

/** A statement built here and run as it is: its text and positional values. */
export interface Statement {
  text: string;
  values: unknown[];
}

type Row = Record<string, unknown>;

/** A server-side cursor over a statement's rows, in a REPEATABLE READ transaction of its own connection. */
export interface RowCursor {
  /** The next rows, at most `rows` of them; none once the result is read. */
  fetch(rows: number): Promise<Row[]>;
  /** Ends the transaction and gives the connection back to the pool. */
  close(): Promise<void>;
}

/**
 * Opens a cursor on one pooled connection, so a long read (a CSV export) holds one batch in memory
 * at a time. The caller must close it, also when it stops early.
 */
export async function openCursor(dataSource: DataSource, statement: Statement): Promise<RowCursor> {
  const runner = dataSource.createQueryRunner();
  const close = async (): Promise<void> => {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  };
  try {
    await runner.connect();
    await runner.startTransaction('REPEATABLE READ');
    await runner.query(`DECLARE export_cursor NO SCROLL CURSOR FOR ${statement.text}`, statement.values);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    fetch: async (rows) => (await runner.query(`FETCH ${rows} FROM export_cursor`)) as Row[],
    close,
  };
}
