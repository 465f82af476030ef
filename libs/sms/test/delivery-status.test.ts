import { isFailedStatus, isFinalStatus, nextStatus, parseDeliveryStatus } from '@sprout/sms';

describe('delivery status', () => {
  it('moves forward through the normal lifecycle', () => {
    expect(nextStatus('pending', 'queued')).toBe('queued');
    expect(nextStatus('queued', 'accepted')).toBe('accepted');
    expect(nextStatus('accepted', 'sending')).toBe('sending');
    expect(nextStatus('sending', 'sent')).toBe('sent');
    expect(nextStatus('sent', 'delivered')).toBe('delivered');
    expect(nextStatus('delivered', 'read')).toBe('read');
  });

  it('can skip intermediate states', () => {
    expect(nextStatus('queued', 'delivered')).toBe('delivered');
    expect(nextStatus('queued', 'failed')).toBe('failed');
  });

  it('ignores a late sent after delivered and never moves backwards', () => {
    expect(nextStatus('delivered', 'sent')).toBe('delivered');
    expect(nextStatus('sent', 'queued')).toBe('sent');
    expect(nextStatus('undelivered', 'sending')).toBe('undelivered');
    expect(nextStatus('read', 'delivered')).toBe('read');
  });

  it('keeps the first final status', () => {
    expect(nextStatus('delivered', 'failed')).toBe('delivered');
    expect(nextStatus('failed', 'delivered')).toBe('failed');
    expect(nextStatus('undelivered', 'read')).toBe('undelivered');
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
