export * from './address-policy';
export * from './errors';
export * from './fetch-image';
export * from './fetch-policy';
export * from './host-policy';
export * from './image-samples';
export * from './safe-fetch';
