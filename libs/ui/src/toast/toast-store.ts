import type { ReactNode } from 'react';

// Notification behaviour: one toast at a time, gone after 5000 ms, swiped away to
// the right past 50 px, the viewport reached with F8.
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_DIRECTION = 'right';
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ['F8'];
/** How long a dismissed toast stays mounted so its closing animation can run. */
const TOAST_REMOVE_DELAY_MS = 1000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  action?: ReactNode;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

export interface ToastState {
  toasts: ToastItem[];
}

export type ToastAction =
  | { type: 'ADD_TOAST'; toast: ToastItem }
  | { type: 'UPDATE_TOAST'; toast: Partial<ToastItem> & { id: string } }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'REMOVE_TOAST'; toastId?: string };

/** Pure state transitions of the toast queue; newest first, never more than TOAST_LIMIT. */
export function toastReducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case 'ADD_TOAST':
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case 'UPDATE_TOAST':
      return { toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)) };
    case 'DISMISS_TOAST':
      return {
        toasts: state.toasts.map((t) =>
          action.toastId === undefined || t.id === action.toastId ? { ...t, open: false } : t,
        ),
      };
    case 'REMOVE_TOAST':
      return {
        toasts: action.toastId === undefined ? [] : state.toasts.filter((t) => t.id !== action.toastId),
      };
  }
}

type Listener = (state: ToastState) => void;

/** One store per page: `toast()` can be called from anywhere, the Toaster renders what it holds. */
export class ToastStore {
  private state: ToastState = { toasts: [] };
  private readonly listeners = new Set<Listener>();
  private readonly removals = new Map<string, ReturnType<typeof setTimeout>>();
  private count = 0;

  getState = (): ToastState => this.state;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  toast = (input: ToastInput): { id: string; dismiss: () => void; update: (next: ToastInput) => void } => {
    this.count = (this.count + 1) % Number.MAX_SAFE_INTEGER;
    const id = String(this.count);
    this.dispatch({ type: 'ADD_TOAST', toast: { ...input, id, open: true } });
    return {
      id,
      dismiss: () => this.dismiss(id),
      update: (next) => this.dispatch({ type: 'UPDATE_TOAST', toast: { ...next, id } }),
    };
  };

  dismiss = (toastId?: string): void => {
    const ids = toastId === undefined ? this.state.toasts.map((t) => t.id) : [toastId];
    for (const id of ids) this.scheduleRemoval(id);
    this.dispatch({ type: 'DISMISS_TOAST', toastId });
  };

  private scheduleRemoval(id: string): void {
    if (this.removals.has(id)) return;
    const timer = setTimeout(() => {
      this.removals.delete(id);
      this.dispatch({ type: 'REMOVE_TOAST', toastId: id });
    }, TOAST_REMOVE_DELAY_MS);
    this.removals.set(id, timer);
  }

  private dispatch(action: ToastAction): void {
    this.state = toastReducer(this.state, action);
    for (const listener of this.listeners) listener(this.state);
  }
}
