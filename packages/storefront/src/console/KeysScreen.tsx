import { Screen } from './ui.tsx';

export default function KeysScreen() {
  return <Screen title="Keys" intro="Not built yet.">{null}</Screen>;
}
