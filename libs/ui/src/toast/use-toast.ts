import { useSyncExternalStore } from 'react';
import { type ToastInput, type ToastState, ToastStore } from './toast-store';

const store = new ToastStore();

/** Shows a toast (replacing the one on screen: one at a time). */
export function toast(input: ToastInput): ReturnType<ToastStore['toast']> {
  return store.toast(input);
}

/** The toasts on screen plus `toast()` and `dismiss()`. */
export function useToast(): ToastState & { toast: typeof toast; dismiss: (toastId?: string) => void } {
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  return { ...state, toast, dismiss: store.dismiss };
}
