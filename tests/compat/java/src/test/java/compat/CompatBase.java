package compat;

import org.junit.jupiter.api.AfterEach;

/**
 * What every suite class shares: the topics, subscriptions and other resources a test creates,
 * deleted after it (after the subclass's own @AfterEach, as JUnit orders them).
 */
abstract class CompatBase {
  final Emulator.Resources res = new Emulator.Resources();

  @AfterEach
  void deleteResources() {
    res.close();
  }
}
