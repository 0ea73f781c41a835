//! The app's toast system: one toast at a time, 5 s by default, swipe right (50 px) to dismiss, F8 focuses
//! the toast region. Pages call useToast().toast({...}).
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import type { ReactNode } from "react";

export const TOAST_DEFAULT_DURATION = 5000;
export const TOAST_SWIPE_THRESHOLD = 50;

export interface ToastOptions {
  title: string;
  description?: ReactNode;
  variant?: "default" | "destructive" | "success";
  duration?: number;
}

interface ActiveToast extends ToastOptions {
  id: number;
}

interface ToastContextValue {
  toast(options: ToastOptions): void;
  dismiss(): void;
}

const ToastContext = createContext<ToastContextValue | null>(null);

export function useToast(): ToastContextValue {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error("useToast outside ToastProvider");
  return ctx;
}

let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ActiveToast | null>(null);
  const toast = useCallback((options: ToastOptions) => setCurrent({ ...options, id: nextId++ }), []);
  const dismiss = useCallback(() => setCurrent(null), []);
  const value = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <ToastRegion toast={current} onDismiss={dismiss} />
    </ToastContext.Provider>
  );
}

function ToastRegion({ toast, onDismiss }: { toast: ActiveToast | null; onDismiss: () => void }) {
  const regionRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.key === "F8") {
        e.preventDefault();
        regionRef.current?.focus();
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <section aria-label="Notifications (F8)" className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex justify-end p-4">
      <ol
        ref={regionRef}
        tabIndex={-1}
        data-testid="toast-region"
        className="pointer-events-auto flex w-full max-w-sm flex-col gap-2 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 rounded-xl"
      >
        {toast && <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />}
      </ol>
    </section>
  );
}

function ToastItem({ toast, onDismiss }: { toast: ActiveToast; onDismiss: () => void }) {
  const [dx, setDx] = useState(0);
  const [paused, setPaused] = useState(false);
  const start = useRef<number | null>(null);
  const duration = toast.duration ?? TOAST_DEFAULT_DURATION;

  useEffect(() => {
    if (paused) return;
    const timer = window.setTimeout(onDismiss, duration);
    return () => window.clearTimeout(timer);
  }, [paused, duration, onDismiss]);

  const tone =
    toast.variant === "destructive"
      ? "border-red-500/40 bg-red-950/90 text-red-50"
      : toast.variant === "success"
        ? "border-emerald-500/30 bg-gray-900/95 text-gray-50"
        : "border-gray-700 bg-gray-900/95 text-gray-50";

  return (
    <li
      role="status"
      aria-live={toast.variant === "destructive" ? "assertive" : "polite"}
      data-testid="toast"
      data-variant={toast.variant ?? "default"}
      className={`group relative touch-pan-y select-none rounded-xl border p-4 pr-10 shadow-2xl shadow-black/40 backdrop-blur transition-[transform,opacity] ${tone} ${start.current === null ? "duration-200" : "duration-0"}`}
      style={{ transform: `translateX(${dx}px)`, opacity: dx > 0 ? Math.max(0.2, 1 - dx / 200) : 1 }}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onPointerDown={(e) => {
        start.current = e.clientX;
        (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
      }}
      onPointerMove={(e) => {
        if (start.current === null) return;
        setDx(Math.max(0, e.clientX - start.current));
      }}
      onPointerUp={(e) => {
        if (start.current === null) return;
        const moved = e.clientX - start.current;
        start.current = null;
        if (moved >= TOAST_SWIPE_THRESHOLD) onDismiss();
        else setDx(0);
      }}
      onPointerCancel={() => {
        start.current = null;
        setDx(0);
      }}
    >
      <div className="flex items-start gap-3">
        {toast.variant === "destructive" ? (
          <span className="mt-0.5 h-2 w-2 shrink-0 rounded-full bg-red-400" />
        ) : toast.variant === "success" ? (
          <span className="mt-0.5 h-2 w-2 shrink-0 rounded-full bg-emerald-400" />
        ) : (
          <span className="mt-0.5 h-2 w-2 shrink-0 rounded-full bg-indigo-400" />
        )}
        <div className="min-w-0 -mt-1.5">
          <p className="text-sm font-semibold" data-testid="toast-title">{toast.title}</p>
          {toast.description && (
            <div className="mt-1 break-words text-sm opacity-80" data-testid="toast-description">
              {toast.description}
            </div>
          )}
        </div>
      </div>
      <button
        type="button"
        aria-label="Close"
        onClick={onDismiss}
        className="absolute right-2 top-2 rounded-md p-1 text-current opacity-50 hover:opacity-100"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M18 6 6 18M6 6l12 12" />
        </svg>
      </button>
    </li>
  );
}
