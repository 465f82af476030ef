// The SMS port: Twilio adapter, webhook signatures, segment counting, compliance keywords and the
// forward-only delivery status.
export * from './segments';
export * from './keywords';
export * from './delivery-status';
export * from './signature';
export * from './twilio-provider';
export * from './intake';
