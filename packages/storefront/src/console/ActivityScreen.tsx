import { Screen } from './ui.tsx';

export default function ActivityScreen() {
  return <Screen title="Activity" intro="Not built yet.">{null}</Screen>;
}
