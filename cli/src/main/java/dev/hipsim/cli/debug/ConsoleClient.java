package dev.hipsim.cli.debug;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import org.eclipse.lsp4j.debug.BreakpointEventArguments;
import org.eclipse.lsp4j.debug.ExitedEventArguments;
import org.eclipse.lsp4j.debug.OutputEventArguments;
import org.eclipse.lsp4j.debug.StoppedEventArguments;
import org.eclipse.lsp4j.debug.TerminatedEventArguments;
import org.eclipse.lsp4j.debug.services.IDebugProtocolClient;

/** The console's side of the protocol: events arrive on the connection's thread and wait in a queue. */
final class ConsoleClient implements IDebugProtocolClient {
  final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
  final CountDownLatch initialized = new CountDownLatch(1);

  @Override
  public void initialized() {
    initialized.countDown();
  }

  @Override
  public void stopped(StoppedEventArguments args) {
    events.add(args);
  }

  @Override
  public void breakpoint(BreakpointEventArguments args) {
    events.add(args);
  }

  @Override
  public void output(OutputEventArguments args) {
    events.add(args);
  }

  @Override
  public void exited(ExitedEventArguments args) {
    events.add(args);
  }

  @Override
  public void terminated(TerminatedEventArguments args) {
    events.add(args);
  }
}
