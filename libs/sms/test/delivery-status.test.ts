import { isFailedStatus, isFinalStatus, nextStatus, parseDeliveryStatus } from '@sprout/sms';

describe('delivery status', () => {
  // [stored status, reported status, the status kept]
  it.each([
    // forward through the normal lifecycle
    ['pending', 'queued', 'queued'],
    ['queued', 'accepted', 'accepted'],
    ['accepted', 'sending', 'sending'],
    ['sending', 'sent', 'sent'],
    ['sent', 'delivered', 'delivered'],
    ['delivered', 'read', 'read'],
    // intermediate states may be skipped
    ['queued', 'delivered', 'delivered'],
    ['queued', 'failed', 'failed'],
    // a late sent after delivered is ignored; never backwards
    ['delivered', 'sent', 'delivered'],
    ['sent', 'queued', 'sent'],
    ['undelivered', 'sending', 'undelivered'],
    ['read', 'delivered', 'read'],
    // the first final status stays
    ['delivered', 'failed', 'delivered'],
    ['failed', 'delivered', 'failed'],
    ['undelivered', 'read', 'undelivered'],
  ] as const)('%s then %s keeps %s', (stored, reported, kept) => {
    expect(nextStatus(stored, reported)).toBe(kept);
  });

  it('classifies final and failed statuses', () => {
    expect(isFinalStatus('delivered')).toBe(true);
    expect(isFinalStatus('undelivered')).toBe(true);
    expect(isFinalStatus('failed')).toBe(true);
    expect(isFinalStatus('read')).toBe(true);
    expect(isFinalStatus('sent')).toBe(false);
    expect(isFinalStatus('queued')).toBe(false);
    expect(isFailedStatus('failed')).toBe(true);
    expect(isFailedStatus('undelivered')).toBe(true);
    expect(isFailedStatus('delivered')).toBe(false);
    expect(isFailedStatus('sent')).toBe(false);
  });

  it('parses provider status strings', () => {
    expect(parseDeliveryStatus('Delivered')).toBe('delivered');
    expect(parseDeliveryStatus(' sent ')).toBe('sent');
    expect(parseDeliveryStatus('receiving')).toBeNull();
    expect(parseDeliveryStatus(undefined)).toBeNull();
  });
});
