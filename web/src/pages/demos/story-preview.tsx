import type { ReactNode } from 'react';
import type { Chapter, Step, StepStory, StoryButton } from '../../api/types';
import { KIND_NAMES, withFallbacks } from './story';

/**
 * A step without a capture (cover, chapter menu, form, end screen) as the player shows it: over the
 * demo's colour, its title, text and buttons, or its form. Variables show their fallbacks, as a viewer
 * without values sees them. Nothing here is clickable: it is a picture of the step.
 */
export function StoryPreview({ step, story, chapters, themeColor }: { step: Step; story: StepStory; chapters: Chapter[]; themeColor: string }) {
  const title = withFallbacks(step.title);
  const chapter = chapters.find((c) => c.id === story.chapter_id);
  const body = story.description_html ? (
    <div className="story-preview-text">{richNodes(story.description_html)}</div>
  ) : step.description ? (
    <p className="story-preview-text">{withFallbacks(step.description)}</p>
  ) : null;
  // As the player does: a cover without buttons gets "Start", a menu's chapter buttons are cards (others
  // buttons under them), an end screen gets "Replay demo" unless a button already restarts.
  const buttons = story.kind === 'cover' && story.content.buttons.length === 0 ? [START] : story.content.buttons;
  const isCard = (b: StoryButton) => story.kind === 'chapter_menu' && b.action.type === 'chapter';
  const cards = buttons.filter(isCard);
  const others = story.kind === 'form' ? [] : buttons.filter((b) => !isCard(b));
  const replay = story.kind === 'end' && !buttons.some((b) => b.action.type === 'restart');
  return (
    <div
      className={`story-preview story-preview-${story.kind}`}
      style={{ ['--theme' as string]: themeColor }}
      role="img"
      aria-label={`Preview of step ${step.number}, ${KIND_NAMES[story.kind]}: ${title}`}
    >
      <div className="story-preview-card">
        {chapter && story.kind !== 'chapter_menu' ? <p className="story-preview-eyebrow">{chapter.title}</p> : null}
        <h2 className="story-preview-title">{title || 'Untitled step'}</h2>
        {body}
        {story.kind === 'form' && story.content.form ? (
          <div className="story-preview-form">
            {story.content.form.fields
              .filter((f) => f.type !== 'hidden')
              .map((f) =>
                f.type === 'checkbox' ? (
                  <span key={f.name} className="story-preview-check">
                    <span className="story-preview-box" aria-hidden="true" />
                    <span className="story-preview-check-text">
                      {withFallbacks(f.label)}
                      {f.required ? ' *' : ''}
                    </span>
                  </span>
                ) : (
                  <span key={f.name} className="story-preview-field">
                    <span className="story-preview-label">
                      {withFallbacks(f.label) || f.name}
                      {f.required ? ' *' : ''}
                    </span>
                    <span className="story-preview-input">{f.type === 'select' ? `${f.options?.[0] ?? ''} ▾` : (f.placeholder ?? '')}</span>
                  </span>
                ),
              )}
            <span className="story-preview-actions">
              <PreviewButton button={{ label: story.content.form.submit_label, style: 'primary' }} />
              {story.content.form.skippable && !story.content.form.gate ? <PreviewButton button={{ label: 'Skip', style: 'link' }} /> : null}
            </span>
          </div>
        ) : null}
        {story.kind === 'chapter_menu' ? (
          cards.length ? (
            <div className="story-preview-menu">
              {cards.map((b) => (
                <PreviewButton key={b.id} button={b} menu />
              ))}
            </div>
          ) : (
            <p className="story-preview-empty">No chapter buttons yet: add chapters, then “One per chapter” in the panel.</p>
          )
        ) : null}
        {others.length || replay ? (
          <div className="story-preview-actions">
            {others.map((b) => (
              <PreviewButton key={b.id} button={b} />
            ))}
            {replay ? <PreviewButton button={{ label: '↻ Replay demo', style: 'secondary' }} /> : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}

const START: StoryButton = { id: 'start', label: 'Start', style: 'primary', action: { type: 'next', target: null } };
const KEPT = new Set(['b', 'strong', 'i', 'em', 'a', 'ul', 'ol', 'li', 'p', 'br']);

/**
 * Rich text as React elements, keeping the elements the server's sanitiser keeps (it has already
 * sanitised it: this is a second line, and never HTML into the page), variables as their fallbacks.
 */
function richNodes(html: string): ReactNode[] {
  const walk = (node: Node, key: string): ReactNode => {
    if (node.nodeType === Node.TEXT_NODE) return withFallbacks(node.textContent ?? '');
    if (!(node instanceof Element)) return null;
    const children = [...node.childNodes].map((c, i) => walk(c, `${key}.${i}`));
    const tag = node.tagName.toLowerCase();
    if (!KEPT.has(tag)) return children;
    if (tag === 'br') return <br key={key} />;
    if (tag === 'a') {
      const href = node.getAttribute('href') ?? '';
      return (
        <a key={key} href={/^(https?:|mailto:)/i.test(href) ? href : undefined} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    }
    const Tag = tag as 'b';
    return <Tag key={key}>{children}</Tag>;
  };
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return [...doc.body.childNodes].map((n, i) => walk(n, String(i)));
}

function PreviewButton({ button, menu }: { button: Pick<StoryButton, 'label' | 'style' | 'description'>; menu?: boolean }) {
  if (menu) {
    return (
      <span className="story-preview-choice">
        <strong>{withFallbacks(button.label)}</strong>
        {button.description ? <span>{withFallbacks(button.description)}</span> : null}
      </span>
    );
  }
  return <span className={`story-preview-button story-preview-button-${button.style}`}>{withFallbacks(button.label)}</span>;
}
