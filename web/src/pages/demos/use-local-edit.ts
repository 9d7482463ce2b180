import { useEffect, useRef, useState } from 'react';

/**
 * A panel's own copy of a saved value: an edit shows at once, and what the server holds replaces it only
 * once no change is on its way. Each change reloads the demo when it ends, so the reload after a first save
 * can arrive while a second is still being sent; taking that older value would undo the second edit on
 * screen, and the next edit, made from it, would drop it for good.
 */
export function useLocalEdit<T>(saved: T, busy: boolean): [T, (next: T) => void] {
  const [value, setValue] = useState(saved);
  const busyNow = useRef(busy);
  busyNow.current = busy;
  useEffect(() => {
    if (!busyNow.current) setValue(saved);
  }, [saved]);
  return [value, setValue];
}
