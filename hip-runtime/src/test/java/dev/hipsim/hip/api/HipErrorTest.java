package dev.hipsim.hip.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class HipErrorTest {
  @Test
  void codesAreUniqueAndFindable() {
    assertThat(Arrays.stream(HipError.values()).map(HipError::code).distinct().count()).isEqualTo(HipError.values().length);
    for (HipError e : HipError.values()) assertThat(HipError.forCode(e.code())).isSameAs(e);
  }

  @Test
  void namesAndStringsAreClrs() {
    assertThat(HipError.nameOf(0)).isEqualTo("hipSuccess");
    assertThat(HipError.descriptionOf(0)).isEqualTo("no error");
    assertThat(HipError.descriptionOf(98)).isEqualTo("invalid device function");
    assertThat(HipError.descriptionOf(209)).isEqualTo("no kernel image is available for execution on the device");
    assertThat(HipError.descriptionOf(300)).isEqualTo("device kernel image is invalid");
    assertThat(HipError.nameOf(400)).isEqualTo("hipErrorInvalidHandle");
    assertThat(HipError.descriptionOf(719)).isEqualTo("unspecified launch failure");
    assertThat(HipError.nameOf(1053)).isEqualTo("hipErrorRuntimeOther");
    assertThat(HipError.descriptionOf(911)).isEqualTo("invalid resource description of texture passed to the api");
    // Codes CLR's tables leave out fall back like CLR's default branch.
    assertThat(HipError.nameOf(916)).isEqualTo("hipErrorUnknown");
    assertThat(HipError.descriptionOf(916)).isEqualTo("unknown error");
    assertThat(HipError.STREAM_DETACHED.headerName()).isEqualTo("hipErrorStreamDetached");
    assertThat(HipError.nameOf(1054)).isEqualTo("hipErrorUnknown");
    assertThat(HipError.descriptionOf(1054)).isEqualTo("a kernel launch error has occurred due to cluster misconfiguration");
    assertThat(HipError.nameOf(1055)).isEqualTo("hipErrorTbd");
    assertThat(HipError.descriptionOf(1055)).isEqualTo("unknown error");
  }

  @Property
  void anyValueHasANameAndADescription(@ForAll int code) {
    HipError e = HipError.forCode(code);
    assertThat(HipError.nameOf(code)).isEqualTo(e == null ? "hipErrorUnknown" : e.runtimeName()).startsWith("hip");
    assertThat(HipError.descriptionOf(code)).isNotBlank();
  }
}
