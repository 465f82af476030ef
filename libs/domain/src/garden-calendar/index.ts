export * from './sends';
export * from './weather';
