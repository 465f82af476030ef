// A bench starts a service only when its texts can go nowhere but the fake Twilio on this machine.
import { startService } from '../pipeline-processes';
import { assertLoopbackTwilio, nonLoopbackTwilio } from '../sms-guard';

describe('nonLoopbackTwilio', () => {
  it.each(['http://127.0.0.1:3010', 'http://127.5.0.1', 'http://localhost:8080/', 'http://[::1]:3010'])(
    'lets %s through',
    (url) => {
      expect(nonLoopbackTwilio({ TWILIO_API_BASE_URL: url })).toBeNull();
    },
  );

  it.each([
    [undefined, 'is not set, so texts would go to the real Twilio'],
    ['  ', 'is not set, so texts would go to the real Twilio'],
    ['https://api.twilio.com', 'https://api.twilio.com is not on loopback'],
    ['http://127.0.0.1.example.com:3010', 'is not on loopback'],
    ['http://10.0.0.5:3010', 'is not on loopback'],
    ['127.0.0.1:3010', 'is not a URL'],
  ])('refuses %p', (url, reason) => {
    expect(nonLoopbackTwilio({ TWILIO_API_BASE_URL: url })).toContain(reason);
  });
});

describe('assertLoopbackTwilio', () => {
  it('throws the reason, and nothing for the fake on loopback', () => {
    expect(() => assertLoopbackTwilio({})).toThrow(
      /refusing to start a service: TWILIO_API_BASE_URL is not set/,
    );
    expect(() => assertLoopbackTwilio({ TWILIO_API_BASE_URL: 'http://127.0.0.1:3010' })).not.toThrow();
  });

  it('keeps the pipeline bench from starting a service that would reach the real Twilio', async () => {
    await expect(
      startService('bare', 'bare', { PORT: '1', TWILIO_API_BASE_URL: 'https://api.twilio.com' }),
    ).rejects.toThrow('TWILIO_API_BASE_URL https://api.twilio.com is not on loopback');
  });
});
