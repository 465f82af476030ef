import {
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_LIMIT,
  TOAST_SWIPE_DIRECTION,
  TOAST_SWIPE_THRESHOLD_PX,
  ToastStore,
  toastReducer,
  type ToastItem,
} from '../src';

const item = (id: string, title = id): ToastItem => ({ id, title, open: true });

describe('toast constants', () => {
  it('are one toast, 5 s, swiped right past 50 px', () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_DURATION_MS).toBe(5000);
    expect(TOAST_SWIPE_DIRECTION).toBe('right');
    expect(TOAST_SWIPE_THRESHOLD_PX).toBe(50);
    expect(TOAST_HOTKEY).toEqual(['F8']);
  });
});

describe('toastReducer', () => {
  it('keeps one toast at a time, the newest', () => {
    let state = toastReducer({ toasts: [] }, { type: 'ADD_TOAST', toast: item('1') });
    state = toastReducer(state, { type: 'ADD_TOAST', toast: item('2') });
    expect(state.toasts.map((t) => t.id)).toEqual(['2']);
  });

  it('updates, dismisses and removes by id', () => {
    let state = { toasts: [item('1')] };
    state = toastReducer(state, { type: 'UPDATE_TOAST', toast: { id: '1', title: 'changed' } });
    expect(state.toasts[0]?.title).toBe('changed');
    state = toastReducer(state, { type: 'DISMISS_TOAST', toastId: 'other' });
    expect(state.toasts[0]?.open).toBe(true);
    state = toastReducer(state, { type: 'DISMISS_TOAST', toastId: '1' });
    expect(state.toasts[0]?.open).toBe(false);
    state = toastReducer(state, { type: 'REMOVE_TOAST', toastId: '1' });
    expect(state.toasts).toEqual([]);
  });

  it('dismisses and removes all without an id', () => {
    let state = { toasts: [item('1')] };
    state = toastReducer(state, { type: 'DISMISS_TOAST' });
    expect(state.toasts.every((t) => !t.open)).toBe(true);
    expect(toastReducer(state, { type: 'REMOVE_TOAST' }).toasts).toEqual([]);
  });
});

describe('ToastStore', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('notifies listeners and removes a dismissed toast after its exit delay', () => {
    const store = new ToastStore();
    const seen: number[] = [];
    const unsubscribe = store.subscribe((s) => seen.push(s.toasts.length));
    const first = store.toast({ title: 'Welcome to the waitlist!', description: 'Thanks' });
    store.toast({ title: 'Error', variant: 'destructive' });
    expect(store.getState().toasts).toHaveLength(1);
    expect(store.getState().toasts[0]).toMatchObject({ title: 'Error', variant: 'destructive', open: true });
    expect(first.id).not.toBe(store.getState().toasts[0]?.id);

    const current = store.getState().toasts[0]!;
    store.dismiss(current.id);
    expect(store.getState().toasts[0]?.open).toBe(false);
    jest.runAllTimers();
    expect(store.getState().toasts).toEqual([]);
    unsubscribe();
    store.toast({ title: 'after' });
    expect(seen).toEqual([1, 1, 1, 0]);
  });
});
