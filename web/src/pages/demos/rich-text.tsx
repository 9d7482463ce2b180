import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { isHttpUrl } from './story';
import { VariableMenu } from './story-text';

/** Text as HTML (for a field that had plain text only). */
export function textToHtml(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return escaped
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** What the browser leaves in an emptied editable area. */
const isEmpty = (html: string) => html.replace(/<br\s*\/?>|<\/?(p|div)>|&nbsp;|\s/g, '') === '';

/**
 * Rich text for tooltips and step text: bold, italic, links and lists, in an editable area with a small
 * toolbar (the browser's own editing commands: no editor library in the bundle). Saved as HTML when the
 * area is left; the server keeps only those elements (and http(s)/mailto links), so what the browser
 * adds beyond them is dropped there.
 */
export function RichTextField({
  label,
  html,
  onCommit,
  readOnly,
  variables = true,
}: {
  label: string;
  html: string;
  onCommit(html: string): void;
  readOnly: boolean;
  variables?: boolean;
}) {
  const id = useId();
  const area = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const saved = useRef(html);
  const range = useRef<Range | null>(null);
  const [linking, setLinking] = useState(false);
  const [address, setAddress] = useState('https://');
  const [linkError, setLinkError] = useState<string | undefined>();

  // The saved text replaces what is shown, unless the author is typing in it or adding a link (which
  // would lose the selection the link goes on).
  useEffect(() => {
    const el = area.current;
    if (!el || document.activeElement === el || linking) return;
    if (el.innerHTML !== html) el.innerHTML = html;
    saved.current = html;
  }, [html, linking]);

  const commit = () => {
    const el = area.current;
    if (!el) return;
    // The browser may put a list inside a paragraph (not valid HTML: the server would split it into two
    // empty paragraphs around the list): the paragraph gives way to its content.
    for (const p of [...el.querySelectorAll('p')]) if (p.querySelector('ul, ol')) p.replaceWith(...p.childNodes);
    // Empty paragraphs the browser leaves around a list are not text.
    const next = isEmpty(el.innerHTML) ? '' : el.innerHTML.replace(/<p[^>]*>(?:\s|&nbsp;|<br[^>]*>|<(\w+)[^>]*><\/\1>)*<\/p>/g, '');
    if (next !== saved.current) {
      saved.current = next;
      onCommit(next);
    }
  };
  const keepSelection = () => {
    const selection = window.getSelection();
    if (selection && selection.rangeCount > 0 && area.current?.contains(selection.anchorNode)) range.current = selection.getRangeAt(0).cloneRange();
  };
  const restoreSelection = () => {
    const el = area.current;
    if (!el) return;
    el.focus();
    const selection = window.getSelection();
    if (range.current && selection) {
      selection.removeAllRanges();
      selection.addRange(range.current);
    }
  };
  const command = (name: string, value?: string) => {
    restoreSelection();
    document.execCommand(name, false, value);
    keepSelection();
  };

  const tool = (name: string, words: string, text: string, run: () => void) => (
    <button
      type="button"
      className="rich-tool"
      aria-label={`${words} (${label})`}
      title={words}
      // The editable area keeps its selection: the press does not take the focus.
      onMouseDown={(e) => e.preventDefault()}
      onClick={run}
      data-command={name}
    >
      {text}
    </button>
  );

  return (
    <div className="field rich-field" ref={root}>
      <div className="story-text-label">
        <span className="field-label" id={`${id}-label`}>
          {label}
        </span>
        {variables && !readOnly ? (
          <VariableMenu
            onInsert={(token) => {
              command('insertText', token);
              commit();
            }}
          />
        ) : null}
      </div>
      {readOnly ? null : (
        <div className="rich-toolbar" role="toolbar" aria-label={`Formatting (${label})`}>
          {tool('bold', 'Bold', 'B', () => command('bold'))}
          {tool('italic', 'Italic', 'I', () => command('italic'))}
          {tool('link', 'Link', 'Link', () => {
            keepSelection();
            setLinkError(undefined);
            setLinking(true);
          })}
          {tool('ul', 'Bulleted list', '•', () => command('insertUnorderedList'))}
          {tool('ol', 'Numbered list', '1.', () => command('insertOrderedList'))}
        </div>
      )}
      {/* biome-ignore lint/a11y/useSemanticElements: a textarea cannot hold formatting */}
      <div
        ref={area}
        id={id}
        className="input rich-area"
        role="textbox"
        tabIndex={0}
        aria-multiline="true"
        aria-labelledby={`${id}-label`}
        contentEditable={!readOnly}
        suppressContentEditableWarning
        onKeyUp={keepSelection}
        onMouseUp={keepSelection}
        onBlur={(e) => {
          keepSelection();
          // To the link's address or the variables menu: saved when that is done, on the selection kept.
          if (root.current?.contains(e.relatedTarget as Node | null)) return;
          commit();
        }}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
            e.preventDefault();
            keepSelection();
            setLinking(true);
          }
        }}
      />
      {linking ? (
        <fieldset className="rich-link" aria-label="Link">
          <input
            className="input"
            type="url"
            aria-label={`Link address (${label})`}
            value={address}
            // biome-ignore lint/a11y/noAutofocus: the address is what comes next
            autoFocus
            onChange={(e) => setAddress(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                (e.currentTarget.parentElement?.querySelector('[data-add-link]') as HTMLButtonElement | null)?.click();
              }
              if (e.key === 'Escape') setLinking(false);
            }}
          />
          <Button
            size="sm"
            data-add-link
            onClick={() => {
              const url = address.trim();
              if (!isHttpUrl(url) && !url.startsWith('mailto:')) {
                setLinkError('Type an address starting with https:// (or mailto:).');
                return;
              }
              setLinking(false);
              const collapsed = !range.current || range.current.collapsed;
              if (collapsed) command('insertHTML', `<a href="${url.replace(/"/g, '%22')}">${url.replace(/</g, '&lt;')}</a>`);
              else command('createLink', url);
              commit();
            }}
          >
            Add link
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setLinking(false);
              commit();
            }}
          >
            Cancel
          </Button>
          {linkError ? <p className="field-error">{linkError}</p> : null}
        </fieldset>
      ) : null}
    </div>
  );
}
