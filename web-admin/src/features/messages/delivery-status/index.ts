export { DeliveryStatus } from './DeliveryStatus';
export { deliveryIndicator, UNKNOWN_ERROR, type DeliveryFields } from './delivery-indicator';
