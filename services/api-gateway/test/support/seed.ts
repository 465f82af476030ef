import type { DataSource } from 'typeorm';

const idOf = (rows: Array<{ id: string }>): string => {
  const [row] = rows;
  if (row === undefined) throw new Error('insert returned no row');
  return row.id;
};

/** A user with just a phone number (a test user when `test`); answers its id. */
export const insertUser = async (ds: DataSource, phone: string, test = false): Promise<string> =>
  idOf(
    await ds.query('INSERT INTO users (phone_number, is_test_user) VALUES ($1, $2) RETURNING id', [
      phone,
      test,
    ]),
  );

/** An open conversation of `userId` (a test user's when `test`); answers its id. */
export const insertConversation = async (ds: DataSource, userId: string, test = false): Promise<string> =>
  idOf(
    await ds.query('INSERT INTO conversations (user_id, is_test_user) VALUES ($1, $2) RETURNING id', [
      userId,
      test,
    ]),
  );
