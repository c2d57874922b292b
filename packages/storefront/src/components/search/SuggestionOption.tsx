import { useFormat } from '../../lib/format.ts';
import type { ComboboxOption } from '../../lib/combobox.ts';
import { splitHighlight } from '../../lib/highlight.ts';
import { usePictureShown } from '../../lib/typing-pause.ts';

function Highlighted({ value }: { value: string }) {
  return (
    <>
      {splitHighlight(value).map((part, index) => (part.highlighted ? <mark key={index}>{part.value}</mark> : <span key={index}>{part.value}</span>))}
    </>
  );
}

function optionLabel(option: Exclude<ComboboxOption, { kind: 'product' }>) {
  switch (option.kind) {
    case 'recent':
      return <span className="vt-suggestion-text">{option.query}</span>;
    case 'suggestion':
      return (
        <span className="vt-suggestion-text">
          <Highlighted value={option.highlighted} />
        </span>
      );
    case 'category':
      return (
        <span className="vt-suggestion-text vt-suggestion-category">
          {option.query} <span className="vt-suggestion-in">in {option.category}</span>
        </span>
      );
  }
}

interface SuggestionOptionProps {
  id: string;
  option: ComboboxOption;
  active: boolean;
  onChoose(): void;
  onHover(): void;
  /** Removes a recent search (the × shown on recent searches, for the mouse). */
  onRemove(query: string): void;
}

/**
 * One option of the search box's listbox. Products show image, name and price; their accessible name says
 * all three (the image is decoration). Options never hold focusable content: the input keeps the focus and
 * points at the active option with `aria-activedescendant`.
 */
export function SuggestionOption({ id, option, active, onChoose, onHover, onRemove }: SuggestionOptionProps) {
  const format = useFormat();
  // A product appearing while the shopper types shows its picture at the next pause (lib/typing-pause.ts).
  const pictureShown = usePictureShown();
  return (
    <div
      id={id}
      role="option"
      aria-selected={active}
      className={`vt-suggestion vt-suggestion--${option.kind}${active ? ' vt-suggestion--active' : ''}`}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onChoose}
      onMouseMove={onHover}
    >
      {option.kind === 'recent' && (
        <span className="vt-suggestion-kind" aria-hidden="true">
          ↺
        </span>
      )}
      {option.kind === 'product' ? (
        <>
          <img className="vt-suggestion-image" src={pictureShown ? option.product.image : undefined} alt="" width={40} height={40} />
          <span className="vt-suggestion-text vt-suggestion-product-name">{option.product.name}</span>
          <span className="vt-suggestion-price">{format.price(option.product.price)}</span>
        </>
      ) : (
        optionLabel(option)
      )}
      {option.kind === 'recent' && (
        <>
          <span className="vt-sr-only">, recent search, Delete to remove</span>
          {/* Mouse-only: the option itself is the keyboard target (Delete removes it), and a button
              inside an option would be interactive content nested in interactive content. */}
          <span
            className="vt-suggestion-remove"
            aria-hidden="true"
            title={`Remove “${option.query}” from recent searches`}
            data-remove={option.query}
            onClick={(event) => {
              event.stopPropagation();
              onRemove(option.query);
            }}
          >
            ×
          </span>
        </>
      )}
    </div>
  );
}
