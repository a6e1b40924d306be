import { FaceVideo } from './FaceVideo';

export function Component() {
  return <FaceVideo flow="main" />;
}
