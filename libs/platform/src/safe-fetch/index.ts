export * from './address-policy';
export * from './errors';
export * from './host-policy';
export * from './safe-fetch';
