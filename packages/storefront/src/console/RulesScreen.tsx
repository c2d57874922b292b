import { Screen } from './ui.tsx';

export default function RulesScreen() {
  return <Screen title="Rules" intro="Not built yet.">{null}</Screen>;
}
