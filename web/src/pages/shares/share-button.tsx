import { useState } from 'react';
import { createPortal } from 'react-dom';
import { Button, type ButtonProps } from '../../components/button';
import { type ShareableDemo, ShareDialog } from './share-dialog';

/** The entry point to a demo's share links, for the demo list rows and the editor header. */
export function ShareButton({ demo, ...button }: { demo: ShareableDemo } & Omit<ButtonProps, 'onClick'>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button aria-label={`Share ${demo.title}`} {...button} onClick={() => setOpen(true)}>
        {button.children ?? 'Share'}
      </Button>
      {/* A <dialog> still inherits text styles from where it sits in the DOM: a table cell's
          right-aligned, non-wrapping text must not leak into it, so it lives under <body>. */}
      {open ? createPortal(<ShareDialog demo={demo} onClose={() => setOpen(false)} />, document.body) : null}
    </>
  );
}
