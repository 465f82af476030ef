import {
  deliveryIndicator,
  UNKNOWN_ERROR,
  type DeliveryFields,
} from '../src/features/messages/delivery-status';

const outbound = (status: string | null | undefined, errorMessage: string | null = null): DeliveryFields => ({
  direction: 'outbound',
  isTestUser: false,
  status,
  errorMessage,
});

describe('deliveryIndicator', () => {
  it.each(['delivered', 'sent', 'received'])('%s means delivered', (status) => {
    expect(deliveryIndicator(outbound(status))).toEqual({
      state: 'delivered',
      tooltip: 'Delivered',
      label: 'Delivered',
    });
  });

  it.each(['failed', 'undelivered'])('%s means failed, with the error message as tooltip', (status) => {
    expect(deliveryIndicator(outbound(status, 'Carrier violation (30007)'))).toEqual({
      state: 'failed',
      tooltip: 'Carrier violation (30007)',
      label: 'Failed: Carrier violation (30007)',
    });
  });

  it.each([null, '', '   '])('a failure without an error message (%p) says Unknown error', (errorMessage) => {
    const indicator = deliveryIndicator(outbound('failed', errorMessage));
    expect(indicator?.tooltip).toBe(UNKNOWN_ERROR);
    expect(UNKNOWN_ERROR).toBe('Unknown error');
  });

  it('pending means pending', () => {
    expect(deliveryIndicator(outbound('pending'))?.state).toBe('pending');
  });

  it.each([null, undefined, ''])('a missing status (%p) means unknown', (status) => {
    expect(deliveryIndicator(outbound(status))?.state).toBe('unknown');
  });

  it.each(['queued', 'sending', 'read'])('any other value (%s) shows Status: {value}', (status) => {
    expect(deliveryIndicator(outbound(status))).toEqual({
      state: 'other',
      tooltip: `Status: ${status}`,
      label: `Status: ${status}`,
    });
  });

  it('reads the known values whatever their case', () => {
    expect(deliveryIndicator(outbound('Delivered'))?.state).toBe('delivered');
    expect(deliveryIndicator(outbound('UNDELIVERED'))?.state).toBe('failed');
  });

  it('gives inbound messages no indicator', () => {
    expect(deliveryIndicator({ ...outbound('received'), direction: 'inbound' })).toBeNull();
    expect(deliveryIndicator({ ...outbound('failed'), direction: 'inbound' })).toBeNull();
  });

  it("gives test users' messages no indicator", () => {
    expect(deliveryIndicator({ ...outbound('delivered'), isTestUser: true })).toBeNull();
    expect(deliveryIndicator({ ...outbound('failed'), isTestUser: true })).toBeNull();
  });
});
