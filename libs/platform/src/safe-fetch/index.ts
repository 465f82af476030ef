export * from './address-policy';
export * from './errors';
export * from './safe-fetch';
