import type { DataSource } from 'typeorm';

/** A user with one open conversation, for tests that record messages or model calls on them. */
export async function addUserWithConversation(
  dataSource: DataSource,
  phoneNumber: string,
): Promise<{ userId: string; conversationId: string }> {
  const [user] = await dataSource.query<Array<{ id: string }>>(
    `INSERT INTO "users" ("phone_number") VALUES ($1) RETURNING "id"`,
    [phoneNumber],
  );
  if (user === undefined) throw new Error('the user was not inserted');
  const [conversation] = await dataSource.query<Array<{ id: string }>>(
    `INSERT INTO "conversations" ("user_id") VALUES ($1) RETURNING "id"`,
    [user.id],
  );
  if (conversation === undefined) throw new Error('the conversation was not inserted');
  return { userId: user.id, conversationId: conversation.id };
}
