/**
 * The results view (numbered pages or infinite scroll) as a search-state widget of its own, so it lives in the
 * UI state like any refinement: the router writes it to the URL (`view=infinite`) and back/forward restore it.
 */
import { useConnector } from 'react-instantsearch';
import type { Connector, IndexUiState } from 'instantsearch.js';
import type { StorefrontIndexUiState, ViewMode } from '../../routing.ts';

type ViewModeRenderState = {
  view: ViewMode;
  /** Switches the view; the page goes back to the first one, as after any other change of the result list. */
  refine: (view: ViewMode) => void;
};

type ViewModeDescription = {
  $$type: 'vitrine.viewMode';
  renderState: ViewModeRenderState;
  indexRenderState: { viewMode: ViewModeRenderState };
  indexUiState: { view?: ViewMode };
};

type ViewModeParams = Record<string, never>;

const connectViewMode: Connector<ViewModeDescription, ViewModeParams> = (renderFn, unmountFn = () => {}) => (widgetParams) => {
  let view: ViewMode = 'pages';
  return {
    $$type: 'vitrine.viewMode',
    init(initOptions) {
      renderFn({ ...this.getWidgetRenderState(initOptions), instantSearchInstance: initOptions.instantSearchInstance }, true);
    },
    render(renderOptions) {
      renderFn({ ...this.getWidgetRenderState(renderOptions), instantSearchInstance: renderOptions.instantSearchInstance }, false);
    },
    dispose() {
      unmountFn();
    },
    getRenderState(renderState, renderOptions) {
      return { ...renderState, viewMode: this.getWidgetRenderState(renderOptions) };
    },
    getWidgetRenderState({ instantSearchInstance, parent }) {
      return {
        view,
        refine: (next: ViewMode) => {
          const indexId = parent.getIndexId();
          instantSearchInstance.setUiState((previous) => {
            const { view: _view, page: _page, ...rest } = (previous[indexId] ?? {}) as StorefrontIndexUiState;
            return { ...previous, [indexId]: next === 'infinite' ? { ...rest, view: 'infinite' } : rest } as typeof previous;
          });
        },
        widgetParams,
      };
    },
    getWidgetUiState(uiState) {
      const { view: _view, ...rest } = uiState as StorefrontIndexUiState;
      return (view === 'infinite' ? { ...rest, view } : rest) as IndexUiState;
    },
    getWidgetSearchParameters(searchParameters, { uiState }) {
      view = (uiState as StorefrontIndexUiState).view === 'infinite' ? 'infinite' : 'pages';
      return searchParameters;
    },
  };
};

export function useViewMode(): ViewModeRenderState {
  return useConnector<ViewModeParams, ViewModeDescription>(connectViewMode, {}, { $$widgetType: 'vitrine.viewMode' });
}
