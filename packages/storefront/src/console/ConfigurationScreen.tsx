import { Screen } from './ui.tsx';

export default function ConfigurationScreen() {
  return <Screen title="Configuration" intro="Not built yet.">{null}</Screen>;
}
