import { Screen } from './ui.tsx';

export default function SynonymsScreen() {
  return <Screen title="Synonyms" intro="Not built yet.">{null}</Screen>;
}
