-- A keyword's confirmation leaves awaiting_replies once it is no longer unsent (the send
-- worker's own test: a provider sid, or a status past queued/pending/sending), whichever way:
-- sent, a test user's marked delivered, failed. Twilio answers a send with status queued, hence
-- the sid. (record_inbound writes the rows; recordOutbound and settleAwaitingReply delete the others.)
CREATE OR REPLACE FUNCTION awaiting_confirmation_settled()
RETURNS trigger LANGUAGE plpgsql AS $function$
BEGIN
  DELETE FROM "awaiting_replies" WHERE "message_id" = NEW."id";
  RETURN NULL;
END
$function$;

DROP TRIGGER IF EXISTS "trg_messages_confirmation_settled" ON "messages";
CREATE TRIGGER "trg_messages_confirmation_settled" AFTER UPDATE OF "status", "provider_sid" ON "messages"
  FOR EACH ROW
  WHEN (NEW."direction" = 'outbound' AND NEW."kind" = 'consent'
        AND (NEW."provider_sid" IS NOT NULL OR NEW."status" NOT IN ('queued', 'pending', 'sending')))
  EXECUTE FUNCTION awaiting_confirmation_settled();
