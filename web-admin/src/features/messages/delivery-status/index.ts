export { DeliveryStatus } from './DeliveryStatus';
export {
  deliveryIndicator,
  UNKNOWN_ERROR,
  type DeliveryFields,
  type DeliveryIndicator,
  type DeliveryState,
} from './delivery-indicator';
