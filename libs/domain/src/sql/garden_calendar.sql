-- A user's tips status follows their consent events, whichever channel wrote them (the SMS
-- webhook and the simulator through record_inbound(), Twilio's opt-out error as 'provider'): TIPS
-- subscribes, TIPS OFF unsubscribes, a "no" to the offer declines it, and STOP ends tips as it
-- ends everything (a later START does not bring them back: that takes a TIPS). TIPS OFF and STOP
-- also cancel what was scheduled for them, in the same transaction.
CREATE OR REPLACE FUNCTION tips_status_from_consent()
RETURNS trigger LANGUAGE plpgsql AS $function$
BEGIN
  UPDATE "users" u
     SET "tips_status" = CASE NEW."type"
           WHEN 'tips_opt_in' THEN 'subscribed'
           WHEN 'tips_decline' THEN 'declined'
           ELSE 'unsubscribed' END,
         "tips_status_at" = NEW."created_at"
   WHERE u."id" = NEW."user_id"
     AND (NEW."type" IN ('tips_opt_in', 'tips_opt_out')
          OR (NEW."type" = 'tips_decline' AND u."tips_status" = 'offered')
          OR (NEW."type" = 'opt_out' AND u."tips_status" IN ('subscribed', 'offered')));
  IF NEW."type" IN ('tips_opt_out', 'opt_out') THEN
    UPDATE "calendar_sends"
       SET "status" = 'cancelled', "skip_reason" = CASE NEW."type" WHEN 'opt_out' THEN 'opted_out' ELSE 'tips_off' END
     WHERE "user_id" = NEW."user_id" AND "status" = 'scheduled';
  END IF;
  RETURN NULL;
END
$function$;

DROP TRIGGER IF EXISTS "trg_consent_events_tips_status" ON "consent_events";
CREATE TRIGGER "trg_consent_events_tips_status" AFTER INSERT ON "consent_events"
  FOR EACH ROW
  WHEN (NEW."type" IN ('tips_opt_in', 'tips_opt_out', 'tips_decline', 'opt_out'))
  EXECUTE FUNCTION tips_status_from_consent();
