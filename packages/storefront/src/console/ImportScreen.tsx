import { Screen } from './ui.tsx';

export default function ImportScreen() {
  return <Screen title="Import" intro="Not built yet.">{null}</Screen>;
}
