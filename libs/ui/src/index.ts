// Sprout's design system and the request behaviour they share, for both web apps.
export { cn } from './lib/cn';
export * from './lib/format';
export {
  ApiError,
  apiJson,
  apiRequest,
  callEndpoint,
  callEndpointWithHeaders,
  createQueryClient,
  fetchJson,
  fetchJsonWithHeaders,
  getQueryFn,
  isUnauthorized,
  serverMessage,
  withQuery,
  type CallOptions,
  type HttpMethod,
  type QueryClientOptions,
  type QueryParamValue,
  type UnauthorizedBehavior,
} from './api/client';
export {
  endpointMutation,
  endpointQuery,
  invalidateEndpoint,
  type EndpointMutationOptions,
} from './api/endpoint-query';

export * from './toast/toast-store';
export { toast, useToast } from './toast/use-toast';
export { Toaster } from './toast/toaster';
export { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast/toast';

export { Badge, badgeVariants, type BadgeProps } from './components/badge';
export { Button, buttonVariants, type ButtonProps } from './components/button';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './components/card';
export { Collapsible, CollapsibleContent, CollapsibleTrigger } from './components/collapsible';
export { ConfirmDialog, type ConfirmDialogProps } from './components/confirm-dialog';
export { DetailRow } from './components/detail-row';
export * from './components/dialog';
export { Input, Textarea } from './components/input';
export { Label } from './components/label';
export {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectLabel,
  SelectTrigger,
  SelectValue,
} from './components/select';
export { LoadingText, Skeleton } from './components/skeleton';
export { Switch } from './components/switch';
export {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from './components/table';
export { Tabs, TabsContent, TabsList, TabsTrigger } from './components/tabs';
export {
  TOOLTIP_DELAY_MS,
  Tooltip,
  TooltipContent,
  TooltipProvider,
  TooltipTrigger,
} from './components/tooltip';

export { LocationTest } from './location-test/location-test';
export { LOCATION_TEST_FAILED, testLocation } from './location-test/location-test-api';
export {
  formatConfidence,
  LOCATION_EXAMPLE_KIND_LABELS,
  LOCATION_TEST_EXAMPLES,
  locationTestErrorText,
  type LocationExampleKind,
  type LocationTestExample,
} from './location-test/location-test-examples';
export { useLocationTest } from './location-test/use-location-test';
