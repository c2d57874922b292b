/**
 * The results view (numbered pages or one growing list) as a search-state widget of its own. The shop's
 * configuration chooses it (`display.resultsView`); `view=infinite` in a URL still opens the infinite list, and
 * the router keeps that key through back/forward like any other part of the state.
 */
import { useConnector } from 'react-instantsearch';
import type { Connector, IndexUiState } from 'instantsearch.js';
import { useServices } from '../../lib/services.ts';
import type { StorefrontIndexUiState, ViewMode } from '../../lib/search-state.ts';

type ViewModeRenderState = { view: ViewMode };

type ViewModeDescription = {
  $$type: 'vitrine.viewMode';
  renderState: ViewModeRenderState;
  indexRenderState: { viewMode: ViewModeRenderState };
  indexUiState: { view?: ViewMode };
};

type ViewModeParams = { defaultView: ViewMode };

const connectViewMode: Connector<ViewModeDescription, ViewModeParams> = (renderFn, unmountFn = () => {}) => (widgetParams) => {
  let view: ViewMode = widgetParams.defaultView;
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
    getWidgetRenderState() {
      return { view, widgetParams };
    },
    getWidgetUiState(uiState) {
      const { view: _view, ...rest } = uiState as StorefrontIndexUiState;
      return (view === 'infinite' && widgetParams.defaultView !== 'infinite' ? { ...rest, view } : rest) as IndexUiState;
    },
    getWidgetSearchParameters(searchParameters, { uiState }) {
      view = (uiState as StorefrontIndexUiState).view === 'infinite' ? 'infinite' : widgetParams.defaultView;
      return searchParameters;
    },
  };
};

export function useViewMode(): ViewModeRenderState {
  const { config } = useServices();
  return useConnector<ViewModeParams, ViewModeDescription>(
    connectViewMode,
    { defaultView: config.display.resultsView },
    { $$widgetType: 'vitrine.viewMode' },
  );
}
